/**
 * The artifact trail: what the session touched, collected deterministically from the
 * history — never asked of an LLM — so it survives every compression: files read, created,
 * changed or deleted (with the last successful edit and the recall ids of the reads since), shell
 * commands with their exit status and the recall ids of their outputs, the other tools' outputs
 * by recall id, error lines of failed calls, and numbers the user gave. Every output with text
 * gets its recall id here whatever its length, so whichever a compression drops stays
 * recallable. Pure.
 */
import type {
  IContent,
  ToolCallBlock,
  ToolResponseBlock,
} from '../../../services/history/IContent.js';
import { fileEffectOf, responseFailed, type FileEffect } from '../density/callFileEffect.js';
import { clip } from '../density/compress/summaryText.js';
import { displayPath, stringParameter } from '../density/toolParameters.js';
import { isShellTool, resultText, shellExitCode } from '../density/toolResultText.js';
import { isDeleteTool, isWriteTool, RECALL_TOOL } from '../densityVocabulary.js';
import {
  isPrunedPointer,
  originalResponseText,
  recallIdOfInclusion,
  recallIdOfResponse,
  recallIdsNamedIn,
} from '../recallPointers.js';
import { humanInclusions } from '../density/humanInclusions.js';
import { isCompactSummary } from '../density/compress/toolResponseSummary.js';
import { summarySubject, toolKindOf } from '../density/compress/toolSummaryFacts.js';
import { carriedTrail } from './carriedTrail.js';
import { pinnedIn, usersWordsIn } from '../pinnedUserMessages.js';
import { carryTried, noteRun, type TriedCommand } from './triedAndFailed.js';
import { namesError } from '../density/shellOutputLines.js';

export const COMMAND_MAX_CHARS = 100;
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

/** A shell command, or another tool's call on one subject, and what its runs returned. */
export interface OutputArtifact {
  /** The last run's outcome: `exit N`, `failed` or `ok`. */
  status: string;
  /** Recall ids of the runs' outputs, newest last (a run with no output text has none). */
  recallIds: string[];
}

export interface Artifacts {
  /** By display path, in order of first touch. */
  readonly files: Map<string, FileArtifact>;
  /** By command (clipped), in order of last run. */
  readonly commands: Map<string, OutputArtifact>;
  /**
   * Outputs of the calls that are neither shell commands nor file reads or writes (searches,
   * listings, fetches, …), by tool and subject (clipped), in order of last run.
   */
  readonly results: Map<string, OutputArtifact>;
  /** Error lines of failed calls, newest last. */
  readonly errors: string[];
  /** Numbers from the user's own messages (not the client's context), in order of first mention. */
  readonly numbers: Set<string>;
  /** Shell commands that failed, with what succeeded next (`triedAndFailed`). */
  readonly tried: TriedCommand[];
}

export function emptyArtifacts(): Artifacts {
  return {
    files: new Map(),
    commands: new Map(),
    results: new Map(),
    errors: [],
    numbers: new Set(),
    tried: [],
  };
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
    if (isDenseEntry(entry)) {
      // Its facts were collected from the turns it stands for, which may be gone: its trail is
      // what still names them.
      if (entry.speaker === 'human') collectCarried(entry, into);
      continue;
    }
    if (entry.speaker === 'human') {
      collectNumbers(entry, into.numbers);
      collectInclusions(entry, workspaceRoot, into);
      collectCarried(entry, into);
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
  if (call === undefined) return;
  if (isPrunedPointer(response.result) || isSummaryLine(response.result)) {
    collectStandIn(response.result, call, workspaceRoot, into);
    return;
  }
  const failed = responseFailed(response);
  if (failed) addErrors(response, into.errors);
  if (isShellTool(call.name)) collectCommand(response, call, failed, into);
  else noteOtherRun(response, call, { failed, workspaceRoot }, into);
  const effect = fileEffectOf(call, { shellFileOps: true });
  if (isOtherResult(call, effect)) collectResult(response, call, { failed, workspaceRoot }, into);
  if (effect === undefined) return;
  for (const target of effect.reads) {
    const file = fileOf(into, displayPath(target, workspaceRoot));
    file.read = true;
    if (!failed) addRecallId(file.recallIds, recallIdOfResponse(response));
  }
  if (failed) return;
  for (const target of effect.writes) {
    recordWrite(fileOf(into, displayPath(target, workspaceRoot)), call);
  }
}

/**
 * A pointer or summary line standing in for a result: the recall id it names goes where the
 * output's would have (the line may be dropped next; a result density pruned before any
 * compression was never seen whole). The other facts were collected from the original, if at all.
 */
function collectStandIn(
  pointer: unknown,
  call: ToolCallBlock,
  workspaceRoot: string,
  into: Artifacts,
): void {
  const id = typeof pointer === 'string' ? recallIdsNamedIn(pointer)[0] : undefined;
  if (id === undefined) return;
  const effect = fileEffectOf(call, { shellFileOps: true });
  const command = isShellTool(call.name) ? stringParameter(call.parameters, 'command') : undefined;
  if (command !== undefined)
    addRecallId(outputOf(into.commands, commandKey(command)).recallIds, id, RECALL_IDS_PER_OUTPUT);
  else if (isOtherResult(call, effect)) {
    addRecallId(
      outputOf(into.results, resultKey(call, workspaceRoot)).recallIds,
      id,
      RECALL_IDS_PER_OUTPUT,
    );
  }
  for (const target of effect?.reads ?? []) {
    const file = fileOf(into, displayPath(target, workspaceRoot));
    file.read = true;
    addRecallId(file.recallIds, id);
  }
}

/** The artifact at `key`, created (with no status yet) where missing; the order is kept. */
function outputOf(map: Map<string, OutputArtifact>, key: string): OutputArtifact {
  let artifact = map.get(key);
  if (artifact === undefined) {
    artifact = { status: '', recallIds: [] };
    map.set(key, artifact);
  }
  return artifact;
}

/** How another tool's call is shown: the tool and its key parameter, clipped. */
function resultKey(call: ToolCallBlock, workspaceRoot: string): string {
  const subject = summarySubject(toolKindOf(call.name, call.parameters), call, workspaceRoot);
  return commandKey(subject === undefined ? call.name : `${call.name} ${subject}`);
}

/**
 * A call whose output only `results` can name: no shell command, no file read or change. A
 * `recall` output is a copy of an original that keeps its own id.
 */
function isOtherResult(call: ToolCallBlock, effect: FileEffect | undefined): boolean {
  if (isShellTool(call.name) || call.name === RECALL_TOOL) return false;
  if (isWriteTool(call.name) || isDeleteTool(call.name)) return false;
  return effect === undefined || effect.reads.length + effect.writes.length === 0;
}

/** The artifact at `key`, moved last (the order is that of the last run). */
function touchOutput(map: Map<string, OutputArtifact>, key: string): OutputArtifact {
  const artifact = outputOf(map, key);
  map.delete(key);
  map.set(key, artifact);
  return artifact;
}

/** Whatever its length: an output a compression drops is recallable only by its id. */
function addOutputId(artifact: OutputArtifact, response: ToolResponseBlock): void {
  if (originalResponseText(response) !== '') {
    addRecallId(artifact.recallIds, recallIdOfResponse(response), RECALL_IDS_PER_OUTPUT);
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
  const text = resultText(response.result);
  const exit = shellExitCode(text);
  const key = commandKey(command);
  const artifact = touchOutput(into.commands, key);
  artifact.status = exit !== undefined ? `exit ${exit}` : failed ? 'failed' : 'ok';
  addOutputId(artifact, response);
  // A reply density sent in place of the output (a repeat of an earlier one) is not its error.
  const errorText =
    response.original ?? (response.error === undefined ? text : `${response.error}\n${text}`);
  noteRun(into.tried, {
    command: key,
    failed,
    status: artifact.status,
    text: errorText,
    shell: true,
  });
}

/** Another tool's run for what was tried: a failure, or a success of a call that failed before. */
function noteOtherRun(
  response: ToolResponseBlock,
  call: ToolCallBlock,
  how: { readonly failed: boolean; readonly workspaceRoot: string },
  into: Artifacts,
): void {
  const command = resultKey(call, how.workspaceRoot);
  const text = response.original ?? `${response.error ?? ''}\n${resultText(response.result)}`;
  noteRun(into.tried, {
    command,
    failed: how.failed,
    status: how.failed ? 'failed' : 'ok',
    text,
    shell: false,
  });
}

function collectResult(
  response: ToolResponseBlock,
  call: ToolCallBlock,
  how: { readonly failed: boolean; readonly workspaceRoot: string },
  into: Artifacts,
): void {
  const artifact = touchOutput(into.results, resultKey(call, how.workspaceRoot));
  artifact.status = how.failed ? 'failed' : 'ok';
  addOutputId(artifact, response);
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

/**
 * Outputs kept by id per command or result: a command run again keeps its last few runs (an
 * older output is superseded by a newer run of the same command).
 */
export const RECALL_IDS_PER_OUTPUT = 6;

/** A file keeps the id of every read since its last write: each window of it is live content. */
function addRecallId(ids: string[], id: string, keep = Number.POSITIVE_INFINITY): void {
  if (ids.includes(id)) return;
  ids.push(id);
  if (ids.length > keep) ids.shift();
}

/** A `compress()` one-liner standing in for a result. */
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

function addErrors(response: ToolResponseBlock, errors: string[]): void {
  const lines = [response.error ?? '', ...resultText(response.result).split('\n')]
    .map(oneLine)
    .filter((line) => line !== '' && namesError(line));
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
      addRecallId(file.recallIds, recallIdOfInclusion(block.text.slice(span.start, span.end)));
    }
  }
}

const NUMBER = /(?<![\w.])\d+(?:[.,]\d+)*(?:%|k|K|M|ms|s|px)?(?![\w])/g;

/** What an earlier Dense summary the client sent back named (`carriedTrail.ts`). */
function collectCarried(entry: IContent, into: Artifacts): void {
  for (const block of entry.blocks) {
    if (block.type !== 'text') continue;
    const carried = carriedTrail(block.text);
    for (const { path, states, lastEdit, recallIds } of carried.files) {
      const file = fileOf(into, path);
      for (const state of states) file[state] = true;
      if (lastEdit !== undefined) file.lastEdit = lastEdit;
      for (const id of recallIds) addRecallId(file.recallIds, id);
    }
    for (const { command, status, recallIds } of carried.commands) {
      const output = outputOf(into.commands, command);
      if (status !== '') output.status = status;
      for (const id of recallIds) addRecallId(output.recallIds, id, RECALL_IDS_PER_OUTPUT);
    }
    carryTried(into.tried, carried.tried);
  }
}

function collectNumbers(entry: IContent, numbers: Set<string>): void {
  for (const block of entry.blocks) {
    if (block.type !== 'text' || block.text.includes('--- End of content ---')) continue;
    // The user's words: their own text, or those a summary Dense wrote carries verbatim.
    const words = usersWordsIn(block.text) || pinnedIn(block.text).join('\n');
    for (const match of words.matchAll(NUMBER)) {
      if (numbers.size >= NUMBERS_KEPT) return;
      numbers.add(match[0]);
    }
  }
}
