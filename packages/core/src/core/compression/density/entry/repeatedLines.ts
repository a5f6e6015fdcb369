/**
 * Append-only density: a tool output that repeats long runs of lines
 * from an earlier output still in context records each run as a one-line marker naming that call
 * and the lines, and keeps everything else verbatim. Costs no prompt cache: nothing already sent
 * changes. Covers what the unchanged reply (`unchangedRead.ts`) cannot: a re-run whose output
 * changed in a few lines (a test or reproduction script after an edit, a status poll), a read of
 * a range that overlaps an earlier read of the same file.
 *
 * The earlier output named must stay in context for as long as the marker does, so it is one
 * density never takes away:
 * - the output of any call that touches no file or writes one, whatever the tool and parameters
 *   (READ→WRITE prunes reads only); a failed run's error counts for a reply that is not a read,
 *   and such a reply is given in its own error;
 * - for a read, also an earlier read by the same tool of the same one file, with no write of that
 *   file since (any write, failed or shell): a later write makes READ→WRITE prune both;
 * - the earlier output is the tool's own text (not a pruned pointer, a summary, or any density
 *   reply; for a read, not an error), and `recall` is never answered this way;
 * - a string parameter of the reply's own call: tools that echo what they were sent (gemini-cli's
 *   write_file and replace show "the updated code") repeat text that sits in the call right above
 *   the reply, which is kept, pruned or compressed together with it. Never another call's
 *   parameter: a later reply could outlive it;
 * - the call is the only one in the history with its id (with reused ids a name would point at
 *   whichever call the reader finds first), and no kept line of the reply looks like a marker.
 *
 * A compression that later drops the named text puts the reply back as the tool's own output
 * (`settleReplies.ts`); the reply block keeps that output for it and for recall.
 *
 * So an edit's window of the file after it, repeated by the next edit's or read's window, is
 * recorded as a marker too.
 *
 * Pure; at most `DIFFED_CANDIDATES` line diffs per output (each bounded in `repeatedLinesText.ts`),
 * chosen among the `SCANNED_CANDIDATES` newest eligible outputs by the lines they share.
 */
import type {
  IContent,
  ToolCallBlock,
  ToolResponseBlock,
} from '../../../../services/history/IContent.js';
import { RECALL_TOOL } from '../../densityVocabulary.js';
import { isPrunedPointer } from '../../recallPointers.js';
import { fileEffectOf, touchesNoFile } from '../callFileEffect.js';
import { asDensityReply, isDensityReply, namesUniquely, type OutputField } from './densityReply.js';
import { isCompactSummary } from '../compress/toolResponseSummary.js';
import { isUnchangedReadReply, readTarget, writesAny, type ReadTarget } from './unchangedRead.js';
import { parameterRecord } from '../toolParameters.js';
import {
  comparableLines,
  isRepeatedLinesReply,
  MIN_SAVED_CHARS,
  repeatedLinesText,
  sharedLineChars,
  type RepeatedLinesSource,
} from './repeatedLinesText.js';

/** Earlier outputs looked at, newest first (their shared lines counted, cheaply). */
const SCANNED_CANDIDATES = 60;
/** Of those, the ones sharing the most lines that are diffed. */
const DIFFED_CANDIDATES = 5;

/**
 * The tool's own text (not any kind of reply) and where it is. An error counts only for a call
 * that touches no file (`errors`): a failed read is never pruned while a successful one may be.
 */
function ownText(
  block: ToolResponseBlock,
  errors: boolean,
): { readonly text: string; readonly field: OutputField } | undefined {
  if (block.isComplete === false || isDensityReply(block)) return undefined;
  const { result, error } = block;
  if (error !== undefined) {
    const failed = errors && typeof error === 'string' && (result === '' || result === undefined);
    return failed ? { text: error, field: 'error' } : undefined;
  }
  if (typeof result !== 'string') return undefined;
  if (isPrunedPointer(result) || isCompactSummary(result) || isUnchangedReadReply(result))
    return undefined;
  return isRepeatedLinesReply(result) ? undefined : { text: result, field: 'result' };
}

/** Whether a call writes a file: density never prunes its output (READ→WRITE prunes reads only). */
function writesAFile(call: ToolCallBlock): boolean {
  return (fileEffectOf(call, { shellFileOps: true })?.writes.length ?? 0) > 0;
}

/** Whether `earlier` may be named by a reply to `call` (see the module comment). */
function mayName(
  earlier: ToolCallBlock,
  call: ToolCallBlock,
  target: ReadTarget | undefined,
  workspaceRoot: string,
): boolean {
  // Density never prunes the output of a call that touches no file or writes one.
  if (touchesNoFile(earlier) || writesAFile(earlier)) return true;
  if (target === undefined || earlier.name !== call.name) return false;
  const files = readTarget(earlier, workspaceRoot)?.files;
  return files?.length === 1 && files[0] === target.files[0];
}

export interface RepeatedLinesOptions {
  readonly workspaceRoot: string;
}

/**
 * The reply to record instead of `response`, or `undefined` to record it as it is. Pure: reads
 * `history` (the history as it is now, without the new response) and returns a new block.
 */
export function repeatedLinesReply(
  history: readonly IContent[],
  call: ToolCallBlock,
  response: ToolResponseBlock,
  options: RepeatedLinesOptions,
): ToolResponseBlock | undefined {
  const { workspaceRoot } = options;
  if (call.name === RECALL_TOOL) return undefined;
  const target = readTarget(call, workspaceRoot);
  const own = ownText(response, target === undefined);
  if (own === undefined || own.text.length < MIN_SAVED_CHARS) return undefined;
  const { text } = own;
  const lines = comparableLines(text);
  const unique = namesUniquely(history, call);
  const named = (candidate: Candidate) => unique(candidate.source.callId);
  const earlier = namedCandidates(history, call, target, workspaceRoot);
  const ranked = [...parameterCandidates(call), ...earlier]
    .filter(named)
    .map((candidate) => ({
      ...candidate,
      shared: sharedLineChars(candidate.lines, lines),
    }))
    .filter((candidate) => candidate.shared >= MIN_SAVED_CHARS)
    .sort((x, y) => y.shared - x.shared)
    .slice(0, DIFFED_CANDIDATES);
  let best: string | undefined;
  for (const { source, output } of ranked) {
    const reply = repeatedLinesText(output, text, source);
    if (reply !== undefined && (best === undefined || reply.length < best.length)) best = reply;
  }
  if (best === undefined || text.length - best.length < MIN_SAVED_CHARS) return undefined;
  return asDensityReply(response, { field: own.field, text: best, original: text });
}

interface Candidate {
  readonly source: RepeatedLinesSource;
  readonly output: string;
  /** The output's distinct lines, as compared. */
  readonly lines: ReadonlySet<string>;
}

/**
 * The call's own string parameters: a tool that echoes what it was sent (a write showing the
 * content it wrote) repeats text that stays in context exactly as long as the reply does, in the
 * call right above it. Density never rewrites a call's parameters.
 */
function parameterCandidates(call: ToolCallBlock): Candidate[] {
  const record = parameterRecord(call.parameters);
  if (record === undefined) return [];
  return Object.entries(record).flatMap(([parameter, value]) =>
    typeof value === 'string' && value.length >= MIN_SAVED_CHARS
      ? [
          {
            source: { callId: call.id, parameter },
            output: value,
            lines: new Set(comparableLines(value)),
          },
        ]
      : [],
  );
}

/**
 * Distinct lines of an earlier output, by its (immutable) block — a block has one text a reply
 * may name: outputs are compared again by later replies.
 */
const LINE_SETS = new WeakMap<ToolResponseBlock, ReadonlySet<string>>();

function lineSetOf(block: ToolResponseBlock, output: string): ReadonlySet<string> {
  let set = LINE_SETS.get(block);
  if (set === undefined) LINE_SETS.set(block, (set = new Set(comparableLines(output))));
  return set;
}

/**
 * The earlier outputs a reply may name, newest first (at most `SCANNED_CANDIDATES`): for a read,
 * none older than a write of its file.
 */
function namedCandidates(
  history: readonly IContent[],
  call: ToolCallBlock,
  target: ReadTarget | undefined,
  workspaceRoot: string,
): Candidate[] {
  const found: Candidate[] = [];
  // Responses by call id; their text is only judged for a call the reply may name.
  const responses = new Map<string, ToolResponseBlock>();
  for (let i = history.length - 1; i >= 0 && found.length < SCANNED_CANDIDATES; i--) {
    const blocks = history[i]!.blocks;
    for (let b = blocks.length - 1; b >= 0; b--) {
      const block = blocks[b]!;
      if (block.type === 'tool_response') responses.set(block.callId, block);
      else if (block.type === 'tool_call') {
        const response = responses.get(block.id);
        if (response === undefined || !mayName(block, call, target, workspaceRoot)) continue;
        const own = ownText(response, target === undefined);
        if (own !== undefined) {
          const lines = lineSetOf(response, own.text);
          found.push({ source: { callId: block.id }, output: own.text, lines });
        }
      }
    }
    if (target === undefined) continue;
    const writes = blocks.some(
      (block) => block.type === 'tool_call' && writesAny(block, target.files, workspaceRoot),
    );
    if (writes) break;
  }
  return found;
}
