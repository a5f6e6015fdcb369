/**
 * Append-only density: a re-read whose result is identical to a copy of the same file
 * that is still in context is answered with a short reply naming the earlier call, instead of the
 * content again. Costs no prompt cache: nothing already sent changes.
 *
 * "Still in context" is read from the current history, never from a memo: the earlier response
 * must be there with its full text (not the pruned pointer, a summary or an earlier reply), and no
 * call after it may write the file (a write, even a failed one or a shell write, could make
 * READ→WRITE prune that copy later while this reply stays).
 *
 * Shell reads count too (`cat f`, `sed -n '1,80p' f`, … — what shellFileOps classifies as reading
 * files and writing none): the same command in the same directory, with byte-identical output.
 *
 * Any other call that changes no file (a search, a listing, a test or script run) whose output is
 * byte-identical to an earlier output still in context gets the same kind of reply, naming that
 * call — but only about a copy density never prunes (a call that reads no file), so the copy the
 * reply names stays (`recall` excepted: it is asked for on purpose).
 *
 * A read whose content is exactly an `@` inclusion of the same file still in an earlier user
 * message (its latest inclusion, no write of the file since) is answered the same way, naming
 * that inclusion.
 */
import type {
  ContentBlock,
  IContent,
  TextBlock,
  ToolCallBlock,
  ToolResponseBlock,
} from '../../../../services/history/IContent.js';
import { RECALL_TOOL } from '../../densityVocabulary.js';
import { inclusionBody } from '../../fileInclusionFormat.js';
import { fileEffectOf, touchesNoFile } from '../callFileEffect.js';
import { asDensityReply, namesUniquely } from './densityReply.js';
import { humanInclusions } from '../humanInclusions.js';
import { extractFilePath, resolveToolPath } from '../toolParameters.js';
import { isShellTool } from '../toolResultText.js';

/** Tools whose identical re-read may be answered by a reply. */
export const UNCHANGED_READ_TOOLS: readonly string[] = ['read_file', 'read_line_range'];

const REPLY_PREFIX = '[unchanged since the read in call ';
const OUTPUT_PREFIX = '[same output as call ';
const REPLY_SUFFIX = ' — that copy is still above]';

export function unchangedReadText(callId: string): string {
  return `${REPLY_PREFIX}${callId}${REPLY_SUFFIX}`;
}

/** The reply to a call that reads no file whose output repeats an earlier one. */
export function sameOutputText(callId: string): string {
  return `${OUTPUT_PREFIX}${callId}${REPLY_SUFFIX}`;
}

/** The reply to a read whose content is an `@` inclusion still in an earlier message. */
export const INCLUDED_REPLY =
  '[unchanged since its inclusion in an earlier message — that copy is still above]';

/** What the text of an unchanged or same-output reply names: a call, or an `@` inclusion. */
export type UnchangedReplyReferent =
  { readonly kind: 'call'; readonly callId: string } | { readonly kind: 'inclusion' };

export function unchangedReplyReferent(text: string): UnchangedReplyReferent | undefined {
  if (text === INCLUDED_REPLY) return { kind: 'inclusion' };
  if (!text.endsWith(REPLY_SUFFIX)) return undefined;
  const prefix = [REPLY_PREFIX, OUTPUT_PREFIX].find((p) => text.startsWith(p));
  if (prefix === undefined) return undefined;
  return { kind: 'call', callId: text.slice(prefix.length, -REPLY_SUFFIX.length) };
}

export function isUnchangedReadReply(result: unknown): boolean {
  if (result === INCLUDED_REPLY) return true;
  return (
    typeof result === 'string' &&
    (result.startsWith(REPLY_PREFIX) || result.startsWith(OUTPUT_PREFIX)) &&
    result.endsWith(REPLY_SUFFIX)
  );
}

export interface UnchangedReadOptions {
  readonly workspaceRoot: string;
}

/** The call's parameters with its path resolved, as one comparable string. */
function callKey(call: ToolCallBlock, workspaceRoot: string): string | undefined {
  const filePath = extractFilePath(call.parameters);
  if (filePath === undefined) return undefined;
  const rest = { ...(call.parameters as Record<string, unknown>) };
  delete rest.file_path;
  delete rest.absolute_path;
  delete rest.path;
  return JSON.stringify([call.name, resolveToolPath(filePath, workspaceRoot), rest]);
}

/** What a re-read is compared by (the repeated-lines reply uses it too): its comparable call, and the files whose content it shows. */
export interface ReadTarget {
  readonly key: string;
  readonly files: readonly string[];
}

export function readTarget(call: ToolCallBlock, workspaceRoot: string): ReadTarget | undefined {
  if (UNCHANGED_READ_TOOLS.includes(call.name)) {
    const key = callKey(call, workspaceRoot);
    const filePath = extractFilePath(call.parameters);
    if (key === undefined || filePath === undefined) return undefined;
    return { key, files: [resolveToolPath(filePath, workspaceRoot)] };
  }
  if (!isShellTool(call.name)) return undefined;
  const effect = fileEffectOf(call, { shellFileOps: true });
  if (effect === undefined || effect.reads.length === 0 || effect.writes.length > 0)
    return undefined;
  return {
    key: JSON.stringify([call.name, call.parameters]),
    files: effect.reads.map((r) => resolveToolPath(r, workspaceRoot)),
  };
}

/**
 * Whether a reply to `call` may name `earlier`, whose output is identical: a read names the same
 * read (same files, same range), any other call one that density keeps.
 */
function mayName(
  earlier: ToolCallBlock,
  target: ReadTarget | undefined,
  workspaceRoot: string,
): boolean {
  if (target === undefined) return touchesNoFile(earlier);
  return readTarget(earlier, workspaceRoot)?.key === target.key;
}

/**
 * Whether the latest inclusion in `entry` (a user message) of the one file `target` reads holds
 * exactly `text`: `same`, `other` (a different copy), or `undefined` when it includes no copy.
 */
function includedCopy(
  entry: IContent,
  target: ReadTarget,
  text: string,
  workspaceRoot: string,
): 'same' | 'other' | undefined {
  if (target.files.length !== 1) return undefined;
  let latest: string | undefined;
  for (const { blockIndex, spans } of humanInclusions(entry)) {
    const block = entry.blocks[blockIndex] as TextBlock;
    for (const span of spans) {
      if (resolveToolPath(span.filePath, workspaceRoot) === target.files[0]) {
        latest = inclusionBody(block.text, span);
      }
    }
  }
  if (latest === undefined) return undefined;
  return latest === text || latest === `${text}\n` ? 'same' : 'other';
}

/** Whether `call` writes any of `files` (resolved paths), succeeded or not, shell writes too. */
export function writesAny(
  call: ToolCallBlock,
  files: readonly string[],
  workspaceRoot: string,
): boolean {
  const writes = fileEffectOf(call, { shellFileOps: true })?.writes ?? [];
  return writes.some((w) => files.includes(resolveToolPath(w, workspaceRoot)));
}

/** The text of a re-read that may be answered by a reply, or `undefined`. */
function eligibleText(response: ToolResponseBlock, callId: string): string | undefined {
  if (response.error !== undefined) return undefined;
  if (response.isComplete === false || typeof response.result !== 'string') return undefined;
  return response.result.length > unchangedReadText(callId).length ? response.result : undefined;
}

/**
 * The reply to record instead of `response`, or `undefined` to record it as it is. Pure: reads
 * `history` (the history as it is now, without the new response) and returns a new block.
 */
export function unchangedReadReply(
  history: readonly IContent[],
  call: ToolCallBlock,
  response: ToolResponseBlock,
  options: UnchangedReadOptions,
): ToolResponseBlock | undefined {
  const { workspaceRoot } = options;
  const target = readTarget(call, workspaceRoot);
  // `recall` is asked for on purpose: its answer is always the content.
  if (call.name === RECALL_TOOL) return undefined;
  if (target === undefined && !touchesNoFile(call)) return undefined;
  const text = eligibleText(response, call.id);
  if (text === undefined) return undefined;
  const scan: Scan = {
    call,
    target,
    text,
    workspaceRoot,
    reply: target === undefined ? sameOutputText : unchangedReadText,
    candidates: new Set<string>(),
    inclusionSuperseded: false,
    unique: namesUniquely(history, call),
  };
  for (let i = history.length - 1; i >= 0; i--) {
    const found = scanEntry(history[i]!, scan);
    if (found === 'written') return undefined;
    if (found !== undefined)
      return asDensityReply(response, { field: 'result', text: found.reply, original: text });
  }
  return undefined;
}

interface Scan {
  readonly call: ToolCallBlock;
  readonly target: ReadTarget | undefined;
  readonly text: string;
  readonly workspaceRoot: string;
  readonly reply: (callId: string) => string;
  /** Identical copies whose call is not reached yet (the walk goes newest first). */
  readonly candidates: Set<string>;
  /**
   * A newer inclusion of the file differs: older inclusions are not named (dedup cuts every copy
   * but the latest).
   */
  inclusionSuperseded: boolean;
  /** Whether a call id names one call only (see `namesUniquely`). */
  readonly unique: (id: string) => boolean;
}

/**
 * One entry of the newest-first walk: the reply when it holds the copy to name, `written` when it
 * writes the file (older copies may be pruned as stale, so none of them is vouched for).
 */
function scanEntry(
  entry: IContent,
  scan: Scan,
): { readonly reply: string } | 'written' | undefined {
  const { call, target, text, workspaceRoot, candidates } = scan;
  const blocks = entry.blocks;
  for (let b = blocks.length - 1; b >= 0; b--) {
    const block = blocks[b]!;
    if (block.type === 'tool_response') {
      if (block.toolName === call.name && block.result === text && block.error === undefined)
        candidates.add(block.callId);
    } else if (block.type === 'tool_call' && candidates.delete(block.id)) {
      if (scan.unique(block.id) && mayName(block, target, workspaceRoot))
        return { reply: scan.reply(block.id) };
    }
  }
  if (target === undefined) return undefined;
  if (!scan.inclusionSuperseded) {
    const included = includedCopy(entry, target, text, workspaceRoot);
    if (included === 'same') return { reply: INCLUDED_REPLY };
    scan.inclusionSuperseded = included === 'other';
  }
  const writes = (block: ContentBlock) =>
    block.type === 'tool_call' && writesAny(block, target.files, workspaceRoot);
  return blocks.some(writes) ? 'written' : undefined;
}
