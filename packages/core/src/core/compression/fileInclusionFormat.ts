/**
 * The one layout of a file inlined into a message (`@` references, `read_many_files`), and the one
 * parser that finds it again. Each inclusion carries a tag, eight hex digits chosen so that the
 * file's content does not contain them:
 *
 *     --- src/a.ts --- [1f0c9a7e]
 *     <content>
 *     --- End of content --- [1f0c9a7e]
 *
 * An inclusion is an opening line followed, at the next occurrence of its tag anywhere in the text,
 * by the closing line with that tag, where the tag is the one `inclusionTag` derives from the
 * exact text between the two lines. The content cannot contain its own tag, so the closer the
 * parser finds after a real opener is always the real one, and everything between is skipped: no
 * line inside a file (marker shaped, or a whole pasted inclusion) can open, close or shift an
 * inclusion. The tag check also rejects an opener pasted into the user's own
 * words that would otherwise pair with a closer inside a file (short of a 32-bit hash collision).
 */

/** The text every closing line starts with (also gemini-cli's own closing line). */
export const INCLUSION_CLOSE = '--- End of content ---';

const TAG_DIGITS = 8;
const OPEN_LINE = /^--- (.+) --- \[([0-9a-f]{8})\]$/;
const CLOSE_LINE = /^--- End of content --- \[([0-9a-f]{8})\]$/;

/** 32-bit FNV-1a over UTF-16 code units. */
function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}

/**
 * The tag of an inclusion whose body (the text between its marker lines) is `content`: one the
 * body does not contain, always the same for the same body. Candidate i is `seed + i * odd` mod
 * 2^32, distinct for every i < 2^32, while a body of length L holds at most L distinct
 * 8-character substrings, so at most L + 1 candidates are tried.
 */
export function inclusionTag(content: string): string {
  const seed = fnv1a(content);
  for (let i = 0; ; i++) {
    const tag = ((seed + Math.imul(i, 0x9e3779b1)) >>> 0).toString(16).padStart(TAG_DIGITS, '0');
    if (!content.includes(tag)) return tag;
  }
}

/** One file's content, between its own tagged opening and closing lines. */
export function formatFileInclusion(filePath: string, content: string): string {
  const body = content.endsWith('\n') ? content : `${content}\n`;
  const tag = inclusionTag(body);
  return `--- ${filePath} --- [${tag}]\n${body}${INCLUSION_CLOSE} [${tag}]`;
}

/** Several files, each with its own marker pair, separated by newlines. */
export function formatFileInclusions(
  files: readonly { readonly path: string; readonly content: string }[],
): string {
  return files.map((file) => formatFileInclusion(file.path, file.content)).join('\n');
}

export interface FileInclusionSpan {
  /** The path exactly as written in the opening marker. */
  readonly filePath: string;
  /** Offset of the opening marker line. */
  readonly start: number;
  /** Offset just past the closing marker line (and its newline, if any). */
  readonly end: number;
}

/** The line starting at `start`, without its line break, and the offset of the next line. */
function lineAt(text: string, start: number): { readonly line: string; readonly next: number } {
  const newline = text.indexOf('\n', start);
  const end = newline === -1 ? text.length : newline;
  return { line: text.slice(start, end).replace(/\r$/, ''), next: newline === -1 ? end : end + 1 };
}

/**
 * Where the inclusion tagged `tag` whose body starts at `from` ends: when the next occurrence of
 * the tag is its closing line and the body is the one the tag was made for; `undefined` otherwise
 * (the opener is then not an inclusion).
 */
function closingEnd(text: string, from: number, tag: string): number | undefined {
  const at = text.indexOf(tag, from);
  if (at === -1) return undefined;
  const lineStart = text.lastIndexOf('\n', at - 1) + 1;
  if (lineStart < from) return undefined;
  const { line, next } = lineAt(text, lineStart);
  if (CLOSE_LINE.exec(line)?.[1] !== tag) return undefined;
  return inclusionTag(text.slice(from, lineStart)) === tag ? next : undefined;
}

/**
 * The inclusions in `text`, in order (see the module comment). Openers and closers count only as
 * whole lines; an opener whose tag next appears anywhere but on its closing line, and a closer
 * without an opener, are plain text. The text of an inclusion is never searched for more.
 */
export function findFileInclusions(text: string): FileInclusionSpan[] {
  if (!text.includes(INCLUSION_CLOSE)) return [];
  const spans: FileInclusionSpan[] = [];
  let at = nextMarkerLine(text, 0);
  while (at !== -1) {
    const { line, next } = lineAt(text, at);
    const open = CLOSE_LINE.test(line) ? null : OPEN_LINE.exec(line);
    const path = open?.[1];
    const tag = open?.[2];
    const end = tag === undefined ? undefined : closingEnd(text, next, tag);
    if (path !== undefined && end !== undefined)
      spans.push({ filePath: path.trim(), start: at, end });
    at = nextMarkerLine(text, end ?? next);
  }
  return spans;
}

/** The file content an inclusion shows: between its opener and closer lines (ends with a newline). */
export function inclusionBody(text: string, span: FileInclusionSpan): string {
  const bodyStart = text.indexOf('\n', span.start) + 1;
  const lastChar = text.endsWith('\n', span.end) ? span.end - 2 : span.end - 1;
  const closerStart = text.lastIndexOf('\n', lastChar) + 1;
  return text.slice(bodyStart, closerStart);
}

/** The start of the first line at or after line start `from` that begins with `--- `, or -1. */
function nextMarkerLine(text: string, from: number): number {
  if (text.startsWith('--- ', from)) return from;
  const newline = text.indexOf('\n--- ', from);
  return newline === -1 ? -1 : newline + 1;
}
