/**
 * How a compaction summary's lines fit its budget. Each tool output's line carries its specifics
 * (best first); when all lines fit with a wide share of specifics each, they go so; else the newest
 * outputs keep the wide share and the others a smaller one; else the newest lines are taken first
 * until they fill `NEWEST_PART` of the budget, then the others most recently used first, each with
 * its share while the taken lines fill less than `FULL_PART` of the budget, then with a small
 * share, so that older lines give up their specifics before they are left out. A line is used when
 * it is written and again whenever the agent later mentions one of its specifics: the agent most
 * often goes on with what it just read, and next with an old output it keeps coming back to (a
 * schema, a module listing). The small share holds what it re-touched (ranked first). Pure.
 */
import { specificsWithin } from './outputSpecifics.js';

/** The heading the turns' lines go under in a summary. */
export const TURNS_HEADING = 'The compacted turns, oldest first:';

export interface SummaryLine {
  /** The line itself (a turn, or a tool output's one-line summary). */
  readonly text: string;
  /** A tool output's specifics, best first (`rankedSpecifics`); absent for other lines. */
  readonly specifics?: readonly string[];
  /**
   * The index of the line at or after which the agent last mentioned one of its specifics (the
   * line count when that was after the last line); absent when it did not after the line.
   */
  readonly lastUse?: number;
  /** A tool output that failed (the newest such line is taken right after the newest lines). */
  readonly failed?: boolean;
}

/** How recently the line at `index` was used: its own place, or where the agent came back to it. */
const recency = (line: SummaryLine, index: number): number =>
  Math.max(index, line.lastUse ?? index);

/** Indices of `lines` from the most recently used on (ties: the later line first). */
function byRecency(lines: readonly SummaryLine[], indices: readonly number[]): number[] {
  return [...indices].sort((a, b) => {
    const order = recency(lines[b] as SummaryLine, b) - recency(lines[a] as SummaryLine, a);
    return order === 0 ? b - a : order;
  });
}

/** Characters of specifics the newest condensed outputs keep (and every one, when all fit). */
export const WIDE_SPECIFICS_CHARS = 4_800;
/** How many of the newest condensed outputs keep `WIDE_SPECIFICS_CHARS` when not all can. */
export const NEWEST_OUTPUTS = 3;
/** Characters of specifics each other condensed output keeps. */
export const SPECIFICS_CHARS = 1_600;
/** Characters each older output keeps once the newer lines have filled `FULL_PART`. */
export const OLDER_SPECIFICS_CHARS = 300;
/** The share of the budget the most recent lines may fill with their whole share of specifics. */
export const FULL_PART = 0.8;
/** The share of the budget the newest lines are taken for before the most recently used ones. */
export const NEWEST_PART = 0.2;

function render(line: SummaryLine, chars: number): string {
  const kept = line.specifics === undefined ? '' : specificsWithin(line.specifics, chars);
  return kept === '' ? line.text : `${line.text} ${kept}`;
}

const joinedLength = (lines: readonly string[]): number =>
  lines.reduce((sum, line) => sum + line.length + 1, 0);

const leftOut = (count: number, earliest: boolean): string =>
  earliest ? `[… ${count} earlier lines left out]` : `[… ${count} lines left out]`;

/** The kept lines in their order, each run of left-out ones said where it was. */
function withGaps(rendered: ReadonlyMap<number, string>, count: number): string[] {
  const out: string[] = [];
  let gap = 0;
  for (let index = 0; index < count; index++) {
    const text = rendered.get(index);
    if (text === undefined) {
      gap++;
      continue;
    }
    if (gap > 0) out.push(leftOut(gap, out.length === 1));
    gap = 0;
    out.push(text);
  }
  if (gap > 0) out.push(leftOut(gap, out.length === 1));
  return out;
}

/**
 * The order lines are taken in: the newest first while they fill `NEWEST_PART` of the budget
 * (sized with their share of specifics), the newest failed output (what the agent acts on next),
 * then the rest most recently used first.
 */
function takingOrder(
  lines: readonly SummaryLine[],
  budget: number,
  share: (index: number) => number,
): number[] {
  const newest: number[] = [];
  let filled = 0;
  for (let index = lines.length - 1; index > 0 && filled < budget * NEWEST_PART; index--) {
    newest.push(index);
    filled += render(lines[index] as SummaryLine, share(index)).length + 1;
  }
  const failure = lines.findLastIndex((line, index) => index > 0 && line.failed === true);
  if (failure > 0 && !newest.includes(failure)) newest.push(failure);
  const taken = new Set(newest);
  const rest = lines.map((_, index) => index).filter((index) => index > 0 && !taken.has(index));
  return [...newest, ...byRecency(lines, rest)];
}

/** In `takingOrder`, as the module header says; the first line always whole. */
function recentThatFit(
  lines: readonly SummaryLine[],
  budget: number,
  share: (index: number) => number,
): string[] {
  const [first] = lines;
  if (first === undefined) return [];
  const rendered = new Map<number, string>([[0, render(first, share(0))]]);
  const order = takingOrder(lines, budget, share);
  let used = (rendered.get(0) as string).length + 1 + leftOut(lines.length, true).length + 1;
  for (const index of order) {
    const line = lines[index] as SummaryLine;
    let text = render(line, used < budget * FULL_PART ? share(index) : OLDER_SPECIFICS_CHARS);
    if (used + text.length + 1 > budget) text = render(line, 0);
    if (used + text.length + 1 > budget) break;
    rendered.set(index, text);
    used += text.length + 1;
  }
  // Each run of left-out lines between kept ones is said too: give up the least recently used
  // kept lines until those markers fit.
  let out = withGaps(rendered, lines.length);
  for (let i = order.length - 1; i >= 0 && joinedLength(out) > budget; i--) {
    if (rendered.delete(order[i] as number)) out = withGaps(rendered, lines.length);
  }
  return out;
}

/**
 * The summary's lines within `budget` characters when joined by newlines (the first line, the
 * task, is kept even past it); see the module header for what gives way first.
 */
export function fitSummaryLines(lines: readonly SummaryLine[], budget: number): string[] {
  const wide = lines.map((line) => render(line, WIDE_SPECIFICS_CHARS));
  if (joinedLength(wide) <= budget) return wide;
  const outputs = lines.flatMap((line, index) => (line.specifics === undefined ? [] : [index]));
  const newest = new Set(outputs.slice(-NEWEST_OUTPUTS));
  const share = (index: number) => (newest.has(index) ? WIDE_SPECIFICS_CHARS : SPECIFICS_CHARS);
  const whole = lines.map((line, index) => render(line, share(index)));
  if (joinedLength(whole) <= budget) return whole;
  return recentThatFit(lines, budget, share);
}
