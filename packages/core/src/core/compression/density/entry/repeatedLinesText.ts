/**
 * The text of a repeated-lines reply (`repeatedLines.ts`): a tool output with each long
 * run of lines it shares with an earlier text (an earlier output, or a parameter of the call)
 * replaced by a one-line marker naming that text and the lines. Line ends aside: a run that only
 * adds a carriage return to each line says so in its marker. Pure text; which text may be named
 * is decided by the caller.
 */
import { clientContextLines } from '../../../../services/history/clientContext.js';
import { diffLines } from 'diff';
import { isExitCodeLine } from '../toolResultText.js';

/** A run of unchanged lines shorter than this stays verbatim. */
export const MIN_REPEATED_LINES = 4;
/** A reply must save at least this many characters (≈ 50 tokens) to be given. */
export const MIN_SAVED_CHARS = 200;
/** Diffs needing more line edits than this are given up (the outputs differ too much anyway). */
const MAX_EDIT_LINES = 2000;
/** Characters of a run's first and last line quoted in its marker. */
const QUOTED_CHARS = 60;

const MARKER =
  /^\[lines (\d+)–(\d+) of call (\S+)'s (?:output|"([^"]+)" parameter) repeat here unchanged(, with CRLF line ends)? \(still above\)/;
/** The same, on any line of a text. */
const MARKER_LINE = new RegExp(MARKER.source, 'm');

function quote(line: string): string {
  const shown = line.length > QUOTED_CHARS ? `${line.slice(0, QUOTED_CHARS)}…` : line;
  return JSON.stringify(shown);
}

/**
 * What a marker names: lines `from`–`to` (1-based) of the output of call `callId`, or of its
 * string `parameter` (the text a write sent, echoed back by the tool); `crlf`: the lines repeat
 * with a carriage return added at their end.
 */
export interface RepeatedLinesRef {
  readonly callId: string;
  readonly from: number;
  readonly to: number;
  readonly parameter?: string;
  readonly crlf?: boolean;
}

/** The one line standing for the lines `ref` names, quoting the first and last of them. */
export function repeatedLinesMarker(ref: RepeatedLinesRef, first: string, last: string): string {
  const what =
    ref.parameter === undefined ? 'output' : `${JSON.stringify(ref.parameter)} parameter`;
  const ends = ref.crlf === true ? ', with CRLF line ends' : '';
  return `[lines ${ref.from}–${ref.to} of call ${ref.callId}'s ${what} repeat here unchanged${ends} (still above): ${quote(first)} … ${quote(last)}]`;
}

export function parseRepeatedLinesMarker(line: string): RepeatedLinesRef | undefined {
  const match = MARKER.exec(line);
  if (match === null) return undefined;
  return {
    callId: match[3]!,
    from: Number(match[1]),
    to: Number(match[2]),
    ...(match[4] === undefined ? {} : { parameter: match[4] }),
    ...(match[5] === undefined ? {} : { crlf: true }),
  };
}

/**
 * The inverse of a reply: each marker line replaced by the lines it names, read through `textOf`;
 * `undefined` when a marker names a text `textOf` does not have or lines it does not hold.
 */
export function expandRepeatedLines(
  reply: string,
  textOf: (ref: RepeatedLinesRef) => string | undefined,
): string | undefined {
  const lines: string[] = [];
  for (const line of reply.split('\n')) {
    const ref = parseRepeatedLinesMarker(line);
    if (ref === undefined) {
      lines.push(line);
      continue;
    }
    const named = textOf(ref);
    if (named === undefined) return undefined;
    const namedLines = outputLines(named);
    if (ref.from < 1 || ref.to > namedLines.length) return undefined;
    const repeated = namedLines.slice(ref.from - 1, ref.to);
    lines.push(...(ref.crlf === true ? repeated.map((l) => `${l}\r`) : repeated));
  }
  return lines.join('\n');
}

/** Whether a tool result holds a repeated-lines marker (it is a reply, not the tool's own text). */
function isMarkerShaped(line: string): boolean {
  return MARKER.test(line);
}

export function isRepeatedLinesReply(result: unknown): boolean {
  return typeof result === 'string' && MARKER_LINE.test(result);
}

/** The lines of an output; a trailing newline does not start another line. */
export function outputLines(value: string): string[] {
  const lines = value.split('\n');
  if (value.endsWith('\n')) lines.pop();
  return lines;
}

/** The lines of a text as they are compared: a carriage return at the end does not count. */
export function comparableLines(value: string): string[] {
  return outputLines(value).map((line) => (line.endsWith('\r') ? line.slice(0, -1) : line));
}

/** Where the lines of a reply come from: the output of call `callId`, or its `parameter`. */
export interface RepeatedLinesSource {
  readonly callId: string;
  readonly parameter?: string;
}

/**
 * `text` with each run of at least `MIN_REPEATED_LINES` lines it shares with `earlier` (in a
 * line diff, line ends aside) replaced by a marker naming `source`; `undefined` when no run is
 * that long, the diff is too large to compute cheaply, or a line of `text` kept verbatim has the
 * shape of a marker (neither the model nor the expansion could tell it from a real one).
 */
export function repeatedLinesText(
  earlier: string,
  text: string,
  source: RepeatedLinesSource,
): string | undefined {
  const parts = diffLines(earlier, text, { maxEditLength: MAX_EDIT_LINES, stripTrailingCr: true });
  if (parts === undefined) return undefined;
  const earlierLines = outputLines(earlier);
  const textLines = outputLines(text);
  // A client's reminder block stays whole: a marker never takes half of it.
  const context = clientContextLines(textLines);
  const out: string[] = [];
  let e = 0;
  let t = 0;
  let markers = 0;
  for (const part of parts) {
    const { count } = part;
    if (part.removed) e += count;
    else if (part.added) {
      out.push(...textLines.slice(t, t + count));
      t += count;
    } else {
      const kept = markRuns(textLines.slice(t, t + count), earlierLines.slice(e, e + count), {
        ...source,
        from: e + 1,
        verbatim: context.slice(t, t + count),
      });
      out.push(...kept.lines);
      markers += kept.markers;
      t += count;
      e += count;
    }
  }
  if (markers === 0 || out.filter(isMarkerShaped).length !== markers) return undefined;
  const joined = out.join('\n');
  return text.endsWith('\n') ? `${joined}\n` : joined;
}

/** How a line of a common run repeats the earlier one: exactly, with a CR added, or not at all. */
function repeatKind(line: string, earlier: string | undefined): 'exact' | 'crlf' | undefined {
  if (earlier === undefined || isExitCodeLine(line)) return undefined;
  if (line === earlier) return 'exact';
  return line === `${earlier}\r` ? 'crlf' : undefined;
}

/**
 * Lines of a common run, starting at line `at.from` of the earlier text: each stretch of at least
 * `MIN_REPEATED_LINES` lines that repeat it the same way becomes a marker. A line reporting an exit
 * code stays verbatim (what density reads a shell result's success from must stay readable), and
 * so does one that differs from the earlier line in more than an added CR, and every line of a
 * client's reminder block.
 */
function markRuns(
  lines: readonly string[],
  earlier: readonly string[],
  at: RepeatedLinesSource & { readonly from: number; readonly verbatim: readonly boolean[] },
): { readonly lines: readonly string[]; readonly markers: number } {
  const out: string[] = [];
  let markers = 0;
  let start = 0;
  const flush = (end: number, kind: 'exact' | 'crlf' | undefined) => {
    if (kind !== undefined && end - start >= MIN_REPEATED_LINES) {
      const ref: RepeatedLinesRef = {
        callId: at.callId,
        from: at.from + start,
        to: at.from + end - 1,
        ...(at.parameter === undefined ? {} : { parameter: at.parameter }),
        ...(kind === 'crlf' ? { crlf: true } : {}),
      };
      out.push(repeatedLinesMarker(ref, earlier[start]!, earlier[end - 1]!));
      markers++;
    } else out.push(...lines.slice(start, end));
    start = end;
  };
  const kindAt = (i: number) =>
    at.verbatim[i] === true ? undefined : repeatKind(lines[i]!, earlier[i]);
  let kind = lines.length === 0 ? undefined : kindAt(0);
  for (let i = 1; i <= lines.length; i++) {
    const next = i < lines.length ? kindAt(i) : undefined;
    if (i < lines.length && next === kind) continue;
    flush(i, kind);
    kind = next;
  }
  return { lines: out, markers };
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
