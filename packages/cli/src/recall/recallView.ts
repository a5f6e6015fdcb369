/**
 * The part of a recall original's text to print: `--lines A:B` keeps a range (1-based,
 * inclusive), then `--grep` keeps the matching lines with their numbers and a few lines of
 * context (`N:` a match, `N-` context, `--` between groups as grep -n prints them; no `--` without
 * context), then
 * `--head N` keeps the first N lines printed.
 */

export interface RecallView {
  /** 1-based, inclusive; `to` undefined is the last line. */
  readonly lines?: { readonly from: number; readonly to?: number };
  /** Case-insensitive; no global flag (tested once per line). */
  readonly grep?: RegExp;
  /** Lines of context around each match. */
  readonly context: number;
  readonly head?: number;
}

export interface ViewedText {
  /** The lines to print, each ending in a newline; empty when none. */
  readonly text: string;
  /** Lines in the whole text. */
  readonly total: number;
  /** Matching lines (with `grep`), else undefined. */
  readonly matches: number | undefined;
}

interface NumberedLine {
  readonly number: number;
  readonly line: string;
}

/** The text's lines; a final newline does not start another line. */
export function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  return lines;
}

function grepLines(lines: readonly NumberedLine[], grep: RegExp, context: number): string[] {
  const hits = lines.flatMap((entry, index) => (grep.test(entry.line) ? [index] : []));
  const out: string[] = [];
  let shownTo = -1;
  for (const hit of hits) {
    const from = Math.max(hit - context, shownTo + 1);
    if (context > 0 && shownTo >= 0 && from > shownTo + 1) out.push('--');
    const to = Math.min(hit + context, lines.length - 1);
    for (let index = from; index <= to; index++) {
      const entry = lines[index];
      if (entry === undefined) continue;
      const isHit = index === hit || (index > hit && grep.test(entry.line));
      out.push(`${entry.number}${isHit ? ':' : '-'}${entry.line}`);
    }
    shownTo = Math.max(shownTo, to);
  }
  return out;
}

export function viewText(text: string, view: RecallView): ViewedText {
  const all = splitLines(text);
  let lines: NumberedLine[] = all.map((line, index) => ({ number: index + 1, line }));
  if (view.lines !== undefined) lines = lines.slice(view.lines.from - 1, view.lines.to);
  let out = lines.map((entry) => entry.line);
  let matches: number | undefined;
  if (view.grep !== undefined) {
    const grep = view.grep;
    matches = lines.filter((entry) => grep.test(entry.line)).length;
    out = grepLines(lines, grep, view.context);
  }
  if (view.head !== undefined) out = out.slice(0, view.head);
  return { text: out.map((line) => `${line}\n`).join(''), total: all.length, matches };
}
