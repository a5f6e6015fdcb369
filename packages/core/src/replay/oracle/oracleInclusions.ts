/**
 * The replay oracle's own reading of inlined files: `--- <path> ---` opens a file, `--- End of
 * content ---` closes it, files follow each other close-then-open (the layout `@` expansion,
 * `read_many_files` and the gemini-cli importer write; docs/transcripts.md). Independent of the
 * strategies' parser, and stricter about what a file's own content can fake:
 *
 * - inside an open file, a line shaped like an opener is content (only a close ends a file);
 * - a file ends at the close after which the next marker line opens a file (or there is none) —
 *   a close-shaped line inside the content, followed by the real close, does not end it early;
 * - when the call says which files it read (`read_many_files` paths), only openers naming one of
 *   them start a file.
 *
 * Dense itself writes a tagged form of the same layout; the oracle reads it too.
 *
 * Pure.
 */

export const ORACLE_CLOSE_LINE = '--- End of content ---';
const OPEN_LINE = /^--- (.+) ---$/;
/** gemini-cli's header before the files of an `@` expansion; never a file. */
const HEADER_LINES = new Set(['--- Content from referenced files ---']);

export interface InlinedSpan {
  /** The path as written in the opener. */
  readonly filePath: string;
  /** Offset of the opener line. */
  readonly start: number;
  /** Offset just past the close line (and its newline). */
  readonly end: number;
}

interface Line {
  readonly start: number;
  /** Offset of the next line (past the newline). */
  readonly next: number;
  readonly text: string;
}

function linesOf(text: string): Line[] {
  const lines: Line[] = [];
  let start = 0;
  while (start <= text.length) {
    const newline = text.indexOf('\n', start);
    const stop = newline === -1 ? text.length : newline;
    lines.push({ start, next: stop + 1, text: text.slice(start, stop).replace(/\r$/, '') });
    if (newline === -1) break;
    start = newline + 1;
  }
  return lines;
}

function openerPath(line: Line | undefined): string | undefined {
  if (line === undefined || line.text === ORACLE_CLOSE_LINE || HEADER_LINES.has(line.text)) {
    return undefined;
  }
  return OPEN_LINE.exec(line.text)?.[1]?.trim();
}

/** Whether `written` (an opener's path) is one of `expected` (as the call named them). */
function isExpected(written: string, expected: readonly string[] | undefined): boolean {
  if (expected === undefined) return true;
  const plain = (p: string) => p.replace(/^\.\//, '').replace(/\\/g, '/');
  const w = plain(written);
  return expected.some((e) => {
    const p = plain(e);
    return w === p || w.endsWith(`/${p}`) || p.endsWith(`/${w}`);
  });
}

/**
 * The index of the close line ending the file opened at `from`, or -1 (never closed): the first
 * close after which the next marker line is an opener (or there is none). A close followed by
 * another close was part of the content.
 */
function closeOf(
  lines: readonly Line[],
  from: number,
  expected: readonly string[] | undefined,
): number {
  let candidate = -1;
  for (let i = from + 1; i < lines.length; i++) {
    const line = lines[i] as Line;
    if (line.text === ORACLE_CLOSE_LINE) {
      candidate = i;
      continue;
    }
    const opener = openerPath(line);
    if (candidate !== -1 && opener !== undefined && isExpected(opener, expected)) return candidate;
  }
  return candidate;
}

const TAGGED_OPEN_LINE = /^--- (.+) --- \[([0-9a-f]{8})\]$/;

/**
 * Files in Dense's tagged layout (`--- <path> --- [tag]` … `--- End of content --- [tag]`): a
 * file runs from its opener to the next line that is its own close. The oracle checks no hash;
 * it only trusts that a file's content does not contain the closing line with its own tag.
 */
function taggedFiles(
  lines: readonly Line[],
  expected: readonly string[] | undefined,
): InlinedSpan[] {
  const spans: InlinedSpan[] = [];
  for (let i = 0; i < lines.length; i++) {
    const match = TAGGED_OPEN_LINE.exec((lines[i] as Line).text);
    const filePath = match?.[1]?.trim();
    if (match === null || filePath === undefined || !isExpected(filePath, expected)) continue;
    const closeText = `${ORACLE_CLOSE_LINE} [${match[2] ?? ''}]`;
    let close = i + 1;
    while (close < lines.length && (lines[close] as Line).text !== closeText) close++;
    if (close >= lines.length) continue;
    spans.push({ filePath, start: (lines[i] as Line).start, end: (lines[close] as Line).next });
    i = close;
  }
  return spans;
}

/**
 * The files inlined in `text`, in order; `expected` limits them to the files a call asked for.
 * Dense's own tagged layout when the text has it; else the untagged layout of imported
 * transcripts, read with the rules above.
 */
export function inlinedFiles(text: string, expected?: readonly string[]): InlinedSpan[] {
  if (!text.includes(ORACLE_CLOSE_LINE)) return [];
  const lines = linesOf(text);
  const tagged = taggedFiles(lines, expected);
  if (tagged.length > 0) {
    return tagged.map((span) => ({ ...span, end: Math.min(span.end, text.length) }));
  }
  const spans: InlinedSpan[] = [];
  for (let i = 0; i < lines.length; i++) {
    const filePath = openerPath(lines[i]);
    if (filePath === undefined || !isExpected(filePath, expected)) continue;
    const close = closeOf(lines, i, expected);
    if (close === -1) break;
    const end = Math.min(lines[close]?.next ?? text.length, text.length);
    spans.push({ filePath, start: lines[i]?.start ?? 0, end });
    i = close;
  }
  return spans;
}
