/**
 * The artifact trail: what the session touched, collected deterministically from the
 * history — never asked of an LLM — so it survives every compression: files read, created,
 * changed or deleted (with the last successful edit and the recall id of the latest read), shell
 * commands with their exit status, error lines of failed calls, and numbers the user gave. Pure.
 */
import type {
  IContent,
  ToolCallBlock,
  ToolResponseBlock,
} from '../../../services/history/IContent.js';
import { fileEffectOf, responseFailed } from '../density/callFileEffect.js';
import { clip } from '../density/compress/summaryText.js';
import { displayPath, stringParameter } from '../density/toolParameters.js';
import { isShellTool, resultText, shellExitCode } from '../density/toolResultText.js';
import { isDeleteTool } from '../densityVocabulary.js';
import { isPrunedPointer, recallIdOfInclusion, recallIdOfResponse } from '../recallPointers.js';
import { humanInclusions } from '../density/humanInclusions.js';
import { isCompactSummary } from '../density/compress/toolResponseSummary.js';

export const COMMAND_MAX_CHARS = 100;
/** Shell outputs longer than this get their recall id in the trail. */
const RECALLABLE_OUTPUT_CHARS = 400;
const ERROR_LINE_MAX = 160;
const ERRORS_KEPT = 8;
const NUMBERS_KEPT = 24;

export interface FileArtifact {
  read: boolean;
  created: boolean;
  changed: boolean;
  deleted: boolean;
  /** The last successful edit: tool and what it changed, one short line. */
  lastEdit?: string;
  /** Recall ids of the reads since the last write (newest last; the content the agent saw). */
  recallIds: string[];
}

export interface Artifacts {
  /** By display path, in order of first touch. */
  readonly files: Map<string, FileArtifact>;
  /** By command (clipped), in order of last run: the last exit status. */
  readonly commands: Map<string, string>;
  /** Error lines of failed calls, newest last. */
  readonly errors: string[];
  /** Numbers from the user's own messages, in order of first mention. */
  readonly numbers: Set<string>;
}

export function emptyArtifacts(): Artifacts {
  return { files: new Map(), commands: new Map(), errors: [], numbers: new Set() };
}

/** Entries Dense adds itself (summaries, the trail) say nothing new about the session. */
export function isDenseEntry(entry: IContent): boolean {
  return entry.metadata?.isSummary === true || entry.metadata?.artifactTrail === true;
}

/** Collects `history` into `into` (later facts override earlier ones); returns `into`. */
export function collectArtifacts(
  history: readonly IContent[],
  workspaceRoot: string,
  into: Artifacts = emptyArtifacts(),
): Artifacts {
  const calls = new Map<string, ToolCallBlock>();
  for (const entry of history) {
    if (isDenseEntry(entry)) continue;
    if (entry.speaker === 'human') {
      collectNumbers(entry, into.numbers);
      collectInclusions(entry, workspaceRoot, into);
    }
    for (const block of entry.blocks) {
      if (block.type === 'tool_call') calls.set(block.id, block);
      else if (block.type === 'tool_response') {
        collectResponse(block, calls.get(block.callId), workspaceRoot, into);
      }
    }
  }
  return into;
}

function collectResponse(
  response: ToolResponseBlock,
  call: ToolCallBlock | undefined,
  workspaceRoot: string,
  into: Artifacts,
): void {
  if (call === undefined || isPrunedPointer(response.result) || isSummaryLine(response.result)) {
    return;
  }
  const failed = responseFailed(response);
  if (isShellTool(call.name)) collectCommand(response, call, failed, into);
  if (failed) addErrors(response, into.errors);
  const effect = fileEffectOf(call, { shellFileOps: true });
  if (effect === undefined) return;
  for (const target of effect.reads) {
    const file = fileOf(into, displayPath(target, workspaceRoot));
    file.read = true;
    if (!failed) addRecallId(file, recallIdOfResponse(response));
  }
  if (failed) return;
  for (const target of effect.writes) {
    recordWrite(fileOf(into, displayPath(target, workspaceRoot)), call);
  }
}

function collectCommand(
  response: ToolResponseBlock,
  call: ToolCallBlock,
  failed: boolean,
  into: Artifacts,
): void {
  const command = stringParameter(call.parameters, 'command');
  if (command === undefined) return;
  const key = commandKey(command);
  const text = resultText(response.result);
  const exit = shellExitCode(text);
  const status = exit !== undefined ? `exit ${exit}` : failed ? 'failed' : 'ok';
  // A long output (a file printed, a test log) is worth getting back exactly.
  const recall =
    text.length > RECALLABLE_OUTPUT_CHARS ? `; recall id ${recallIdOfResponse(response)}` : '';
  into.commands.delete(key);
  into.commands.set(key, `${status}${recall}`);
}

/** How a command is shown (and matched by the replay's survival metric). */
export function commandKey(command: string): string {
  return clip(command.replace(/\s+/g, ' ').trim(), COMMAND_MAX_CHARS);
}

function recordWrite(file: FileArtifact, call: ToolCallBlock): void {
  const deletes = isDeleteTool(call.name);
  if (deletes) file.deleted = true;
  else if (call.name === 'write_file' && !file.read && !file.changed) file.created = true;
  else file.changed = true;
  if (!deletes) file.deleted = false;
  file.lastEdit = editLine(call);
  file.recallIds = [];
}

/** Copies of one file kept by id; a file re-read in parts keeps the last few. */
const RECALL_IDS_PER_FILE = 6;

function addRecallId(file: FileArtifact, id: string): void {
  if (file.recallIds.includes(id)) return;
  file.recallIds.push(id);
  if (file.recallIds.length > RECALL_IDS_PER_FILE) file.recallIds.shift();
}

/** A `compress()` one-liner standing in for a result: its facts were collected before. */
function isSummaryLine(result: unknown): boolean {
  return isCompactSummary(result) && typeof result === 'string' && result.includes(' — ');
}

function fileOf(into: Artifacts, key: string): FileArtifact {
  let file = into.files.get(key);
  if (file === undefined) {
    file = { read: false, created: false, changed: false, deleted: false, recallIds: [] };
    into.files.set(key, file);
  }
  return file;
}

function editLine(call: ToolCallBlock): string {
  const oldText = stringParameter(call.parameters, 'old_string');
  const newText = stringParameter(call.parameters, 'new_string');
  if (oldText !== undefined && newText !== undefined) {
    return `${call.name} ${JSON.stringify(clip(oneLine(oldText), 40))} → ${JSON.stringify(clip(oneLine(newText), 40))}`;
  }
  return call.name;
}

const oneLine = (text: string): string => text.replace(/\s+/g, ' ').trim();

const ERROR_LINE = /\b(error|fail(ed|ure|s)?|exception|traceback|assert|panic)\b|✗|×/i;

function addErrors(response: ToolResponseBlock, errors: string[]): void {
  const lines = [response.error ?? '', ...resultText(response.result).split('\n')]
    .map(oneLine)
    .filter((line) => line !== '' && ERROR_LINE.test(line));
  for (const line of lines.slice(0, 3)) {
    const shown = clip(line, ERROR_LINE_MAX);
    const at = errors.indexOf(shown);
    if (at !== -1) errors.splice(at, 1);
    errors.push(shown);
  }
  if (errors.length > ERRORS_KEPT) errors.splice(0, errors.length - ERRORS_KEPT);
}

/** `@` inclusions: the file was read, and the span is recallable by its id. */
function collectInclusions(entry: IContent, workspaceRoot: string, into: Artifacts): void {
  for (const { blockIndex, spans } of humanInclusions(entry)) {
    const block = entry.blocks[blockIndex];
    if (block?.type !== 'text') continue;
    for (const span of spans) {
      const file = fileOf(into, displayPath(span.filePath, workspaceRoot));
      file.read = true;
      addRecallId(file, recallIdOfInclusion(block.text.slice(span.start, span.end)));
    }
  }
}

const NUMBER = /(?<![\w.])\d+(?:[.,]\d+)*(?:%|k|K|M|ms|s|px)?(?![\w])/g;

function collectNumbers(entry: IContent, numbers: Set<string>): void {
  for (const block of entry.blocks) {
    if (block.type !== 'text' || block.text.includes('--- End of content ---')) continue;
    for (const match of block.text.matchAll(NUMBER)) {
      if (numbers.size >= NUMBERS_KEPT) return;
      numbers.add(match[0]);
    }
  }
}
