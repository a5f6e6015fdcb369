/**
 * A text file as lines, for the line-based tools. Lines keep a trailing `\r` (CRLF files survive an
 * edit unchanged); whether the text ended with a newline is remembered.
 */

export interface TextLines {
  readonly lines: readonly string[];
  readonly trailingNewline: boolean;
  /** The file's line ending, used for inserted lines. */
  readonly eol: '\n' | '\r\n';
}

export function splitLines(text: string): TextLines {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  if (text === '') return { lines: [], trailingNewline: false, eol };
  const trailingNewline = text.endsWith('\n');
  const lines = (trailingNewline ? text.slice(0, -1) : text).split('\n');
  return { lines, trailingNewline, eol };
}

export function joinLines(text: TextLines): string {
  if (text.lines.length === 0) return '';
  return text.lines.join('\n') + (text.trailingNewline ? '\n' : '');
}

/** `content` as whole lines in the file's line ending (one final newline is not an extra line). */
export function contentToLines(content: string, eol: '\n' | '\r\n'): string[] {
  const body = content.endsWith('\n') ? content.slice(0, -1) : content;
  const lines = body.split('\n');
  return eol === '\r\n' ? lines.map((line) => (line.endsWith('\r') ? line : `${line}\r`)) : lines;
}
