/**
 * How a compaction summary's lines fit its budget. Each tool output's line carries its specifics
 * (best first); when all lines fit with a wide share of specifics each, they go so; else the newest
 * outputs keep the wide share and the others a smaller one; else the lines are taken newest first,
 * each with its share while the taken lines fill less than `FULL_PART` of the budget, then with a
 * small share, so that older lines give up their specifics before they are left out. The agent
 * most often goes on with what it just read, and the small share holds what it re-touched (ranked
 * first). Pure.
 */
import { specificsWithin } from './outputSpecifics.js';

export interface SummaryLine {
  /** The line itself (a turn, or a tool output's one-line summary). */
  readonly text: string;
  /** A tool output's specifics, best first (`rankedSpecifics`); absent for other lines. */
  readonly specifics?: readonly string[];
}

/** Characters of specifics the newest condensed outputs keep (and every one, when all fit). */
export const WIDE_SPECIFICS_CHARS = 4_800;
/** How many of the newest condensed outputs keep `WIDE_SPECIFICS_CHARS` when not all can. */
export const NEWEST_OUTPUTS = 3;
/** Characters of specifics each other condensed output keeps. */
export const SPECIFICS_CHARS = 1_600;
/** Characters each older output keeps once the newer lines have filled `FULL_PART`. */
export const OLDER_SPECIFICS_CHARS = 300;
/** The share of the budget the newest lines may fill with their whole share of specifics. */
export const FULL_PART = 0.8;

function render(line: SummaryLine, chars: number): string {
  const kept = line.specifics === undefined ? '' : specificsWithin(line.specifics, chars);
  return kept === '' ? line.text : `${line.text} ${kept}`;
}

const joinedLength = (lines: readonly string[]): number =>
  lines.reduce((sum, line) => sum + line.length + 1, 0);

const leftOut = (count: number): string => `[… ${count} earlier lines left out]`;

/** Newest first, as the module header says; the first line always whole, the rest counted. */
function newestThatFit(
  lines: readonly SummaryLine[],
  budget: number,
  share: (index: number) => number,
): string[] {
  const [first, ...rest] = lines;
  if (first === undefined) return [];
  const head = render(first, share(0));
  const kept: string[] = [];
  let used = head.length + 1 + leftOut(rest.length).length + 1;
  for (let i = rest.length - 1; i >= 0; i--) {
    const line = rest[i] as SummaryLine;
    let text = render(line, used < budget * FULL_PART ? share(i + 1) : OLDER_SPECIFICS_CHARS);
    if (used + text.length + 1 > budget) text = render(line, 0);
    if (used + text.length + 1 > budget) break;
    kept.unshift(text);
    used += text.length + 1;
  }
  const skipped = rest.length - kept.length;
  return skipped === 0 ? [head, ...kept] : [head, leftOut(skipped), ...kept];
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
  return newestThatFit(lines, budget, share);
}
