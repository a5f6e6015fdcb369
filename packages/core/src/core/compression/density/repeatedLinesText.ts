/**
 * The text of a repeated-lines reply (issue 14.2, `repeatedLines.ts`): a tool output with each long
 * run of lines it shares with an earlier output replaced by a one-line marker naming that output
 * and the lines. Pure text; which earlier output may be named is decided by the caller.
 */
import { diffLines } from 'diff';
import { isExitCodeLine } from './toolResultText.js';

/** A run of unchanged lines shorter than this stays verbatim. */
export const MIN_REPEATED_LINES = 4;
/** A reply must save at least this many characters (≈ 50 tokens) to be given. */
export const MIN_SAVED_CHARS = 200;
/** Diffs needing more line edits than this are given up (the outputs differ too much anyway). */
const MAX_EDIT_LINES = 2000;
/** Characters of a run's first and last line quoted in its marker. */
const QUOTED_CHARS = 60;

const MARKER = /^\[lines (\d+)–(\d+) of call (\S+)'s output repeat here unchanged \(still above\)/;
/** The same, on any line of a text. */
const MARKER_LINE = new RegExp(MARKER.source, 'm');

function quote(line: string): string {
  const shown = line.length > QUOTED_CHARS ? `${line.slice(0, QUOTED_CHARS)}…` : line;
  return JSON.stringify(shown);
}

/** The one line standing for lines `from`–`to` (1-based) of `callId`'s output. */
export function repeatedLinesMarker(
  callId: string,
  from: number,
  to: number,
  first: string,
  last: string,
): string {
  return `[lines ${from}–${to} of call ${callId}'s output repeat here unchanged (still above): ${quote(first)} … ${quote(last)}]`;
}

/** What a marker line stands for: lines `from`–`to` (1-based) of `callId`'s output. */
export interface RepeatedLinesRef {
  readonly callId: string;
  readonly from: number;
  readonly to: number;
}

export function parseRepeatedLinesMarker(line: string): RepeatedLinesRef | undefined {
  const match = MARKER.exec(line);
  if (match === null) return undefined;
  return { callId: match[3]!, from: Number(match[1]), to: Number(match[2]) };
}

/** Whether a tool result holds a repeated-lines marker (it is a reply, not the tool's own text). */
export function isRepeatedLinesReply(result: unknown): boolean {
  return typeof result === 'string' && MARKER_LINE.test(result);
}

/** The lines of an output; a trailing newline does not start another line. */
export function outputLines(value: string): string[] {
  const lines = value.split('\n');
  if (value.endsWith('\n')) lines.pop();
  return lines;
}

/**
 * `text` with each run of at least `MIN_REPEATED_LINES` lines it shares with `earlier` (in a
 * line diff) replaced by a marker naming `callId`; `undefined` when no run is that long or the
 * diff is too large to compute cheaply.
 */
export function repeatedLinesText(
  earlier: string,
  text: string,
  callId: string,
): string | undefined {
  const parts = diffLines(earlier, text, { maxEditLength: MAX_EDIT_LINES });
  if (parts === undefined) return undefined;
  const out: string[] = [];
  let earlierLine = 1;
  let replaced = false;
  for (const part of parts) {
    const { count } = part;
    if (part.removed) {
      earlierLine += count;
      continue;
    }
    if (part.added || count < MIN_REPEATED_LINES) out.push(part.value);
    else {
      const kept = markRuns(
        outputLines(part.value),
        part.value.endsWith('\n'),
        callId,
        earlierLine,
      );
      out.push(kept.text);
      replaced ||= kept.replaced;
    }
    if (!part.added) earlierLine += count;
  }
  return replaced ? out.join('') : undefined;
}

/**
 * Lines shared with the earlier output, starting at its line `from`: each run of at least
 * `MIN_REPEATED_LINES` becomes a marker, except that a line reporting an exit code stays verbatim
 * (what density reads a shell result's success from must stay readable).
 */
function markRuns(
  lines: readonly string[],
  endsWithNewline: boolean,
  callId: string,
  from: number,
): { readonly text: string; readonly replaced: boolean } {
  const out: string[] = [];
  let replaced = false;
  let start = 0;
  const flush = (end: number) => {
    if (end - start >= MIN_REPEATED_LINES) {
      const first = lines[start]!;
      const last = lines[end - 1]!;
      out.push(repeatedLinesMarker(callId, from + start, from + end - 1, first, last));
      replaced = true;
    } else out.push(...lines.slice(start, end));
  };
  lines.forEach((line, i) => {
    if (!isExitCodeLine(line)) return;
    flush(i);
    out.push(line);
    start = i + 1;
  });
  flush(lines.length);
  const text = out.join('\n');
  return { text: endsWithNewline ? `${text}\n` : text, replaced };
}

/**
 * An upper bound, cheap to compute, on what a reply naming an earlier output could save: the
 * characters of the new output's `lines` found among the earlier output's lines.
 * Used to pick which outputs to diff.
 */
export function sharedLineChars(
  earlierLines: ReadonlySet<string>,
  lines: readonly string[],
): number {
  let shared = 0;
  for (const line of lines) if (earlierLines.has(line)) shared += line.length + 1;
  return shared;
}
