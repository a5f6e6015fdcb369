/**
 * Finds the `@path` references in a prompt, without touching the disk: `@src/a.ts`, `@"my file.md"`
 * or `@'my file.md'`, `@my\ file.md`, and globs such as `@src/**\/*.ts`. An `@` counts only at the
 * start, after whitespace or after `(` / `[` (so `me@example.com` is not one); sentence
 * punctuation and unbalanced closing brackets after an unquoted path (`see @a.ts, then`,
 * `(@a.ts)`) are not part of it.
 */

export interface AtReference {
  /** The path or glob, unquoted and unescaped. */
  readonly path: string;
  /** Offsets of the reference (from the `@`) in the prompt. */
  readonly start: number;
  readonly end: number;
}

const TRAILING_PUNCTUATION = /[,;:!?'"]+$/;
const CLOSERS: Readonly<Record<string, string>> = { ')': '(', ']': '[', '}': '{' };

/** Characters after which an `@` starts a reference (besides whitespace). */
const OPENERS = new Set(['(', '[']);

function count(text: string, char: string): number {
  return text.split(char).length - 1;
}

/** Strips trailing punctuation; a closing bracket only when the path does not open it. */
function stripTrailing(path: string): string {
  let result = path;
  for (;;) {
    const before = result;
    result = result.replace(TRAILING_PUNCTUATION, '');
    const last = result.at(-1);
    const opener = last === undefined ? undefined : CLOSERS[last];
    if (opener !== undefined && last !== undefined && count(result, last) > count(result, opener)) {
      result = result.slice(0, -1);
    }
    if (result === before) return result;
  }
}

function isSpace(char: string | undefined): boolean {
  return char !== undefined && /\s/.test(char);
}

/** The unquoted token from `from`: backslash escapes the next character. */
function readBare(text: string, from: number): { path: string; end: number } {
  let path = '';
  let at = from;
  while (at < text.length && !isSpace(text[at])) {
    const char = text[at] as string;
    if (char === '\\' && at + 1 < text.length) {
      path += text[at + 1];
      at += 2;
      continue;
    }
    path += char;
    at++;
  }
  return { path, end: at };
}

function trimPunctuation(token: { path: string; end: number }): { path: string; end: number } {
  let path = stripTrailing(token.path);
  // A final '.' ends a sentence, unless the path is made of dots ('.', '..', '../..').
  if (path.endsWith('.') && !/(^|\/)\.{1,2}$/.test(path)) path = path.replace(/\.+$/, '');
  return { path, end: token.end - (token.path.length - path.length) };
}

function readQuoted(text: string, from: number): { path: string; end: number } | undefined {
  const quote = text[from];
  const close = text.indexOf(quote as string, from + 1);
  if (close === -1) return undefined;
  return { path: text.slice(from + 1, close), end: close + 1 };
}

/** Every reference in `text`, in order. */
export function parseAtReferences(text: string): AtReference[] {
  const references: AtReference[] = [];
  let at = text.indexOf('@');
  while (at !== -1) {
    const before = text[at - 1];
    const startsToken = at === 0 || isSpace(before) || OPENERS.has(before ?? '');
    const next = text[at + 1];
    if (startsToken && next !== undefined && !isSpace(next) && next !== '@') {
      const quoted = next === '"' || next === "'" ? readQuoted(text, at + 1) : undefined;
      const token = quoted ?? trimPunctuation(readBare(text, at + 1));
      if (token.path.trim() !== '') {
        references.push({ path: token.path, start: at, end: token.end });
      }
      at = text.indexOf('@', Math.max(token.end, at + 1));
      continue;
    }
    at = text.indexOf('@', at + (next === '@' ? 2 : 1));
  }
  return references;
}
