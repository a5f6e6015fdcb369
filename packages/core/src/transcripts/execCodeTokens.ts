/**
 * Tokens of the JavaScript that Codex's `exec` tool runs, for the small subset `parseExecCode`
 * recognises: identifiers, punctuation, numbers, and string literals (quoted, or template literals
 * without substitutions) with their cooked values. Comments and whitespace are skipped. Anything
 * else (operators, regular expressions, `${…}`, escapes it does not know) stops tokenizing: the
 * caller then treats the code as not understood. Pure; never throws.
 */

export type ExecToken =
  | { readonly kind: 'word'; readonly value: string }
  | { readonly kind: 'punct'; readonly value: string }
  | { readonly kind: 'number'; readonly value: number }
  | { readonly kind: 'string'; readonly value: string };

export type ExecTokens =
  | { readonly kind: 'tokens'; readonly tokens: readonly ExecToken[] }
  | { readonly kind: 'unsupported'; readonly at: number };

const PUNCT = new Set(['(', ')', '{', '}', '[', ']', '.', ',', ';', ':', '=']);
const WORD_START = /[A-Za-z_$]/;
const WORD_PART = /[A-Za-z0-9_$]/;
const NUMBER = /^(?:\d+(?:\.\d+)?|\.\d+)(?:[eE][+-]?\d+)?(?![A-Za-z0-9_$])/;
const SIMPLE_ESCAPES: Readonly<Record<string, string>> = {
  n: '\n',
  t: '\t',
  r: '\r',
  b: '\b',
  f: '\f',
  v: '\v',
  '0': '\0',
  '\\': '\\',
  "'": "'",
  '"': '"',
  '`': '`',
};

/** A `\xHH`, `\uHHHH` or `\u{H…}` escape at `code[at]` (the letter after the backslash). */
function readCodePointEscape(
  code: string,
  at: number,
): { value: string; next: number } | undefined {
  const rest = code.slice(at + 1, at + 9);
  const hex =
    code[at] === 'x'
      ? /^[0-9a-fA-F]{2}/.exec(rest)?.[0]
      : (/^[0-9a-fA-F]{4}/.exec(rest)?.[0] ?? /^\{[0-9a-fA-F]{1,6}\}/.exec(rest)?.[0]);
  if (hex === undefined) return undefined;
  const point = Number.parseInt(hex.replace(/[{}]/g, ''), 16);
  if (point > 0x10ffff) return undefined;
  return { value: String.fromCodePoint(point), next: at + 1 + hex.length };
}

/** The escape at `code[at]` (just after the backslash): its value and the index after it. */
function readEscape(code: string, at: number): { value: string; next: number } | undefined {
  const char = code[at];
  if (char === undefined) return undefined;
  if (char === '\n') return { value: '', next: at + 1 };
  if (char === '\r') return { value: '', next: code[at + 1] === '\n' ? at + 2 : at + 1 };
  if (char === 'x' || char === 'u') return readCodePointEscape(code, at);
  const simple = SIMPLE_ESCAPES[char];
  if (simple === undefined || (char === '0' && /\d/.test(code[at + 1] ?? ''))) return undefined;
  return { value: simple, next: at + 1 };
}

/** A quoted or template string starting at `code[start]`; undefined if unsupported/unterminated. */
function readString(code: string, start: number): { value: string; next: number } | undefined {
  const quote = code[start];
  const template = quote === '`';
  let value = '';
  let at = start + 1;
  while (at < code.length) {
    const char = code[at] as string;
    if (char === quote) return { value, next: at + 1 };
    if (char === '\\') {
      const escape = readEscape(code, at + 1);
      if (escape === undefined) return undefined;
      value += escape.value;
      at = escape.next;
      continue;
    }
    if (template && char === '$' && code[at + 1] === '{') return undefined;
    if (!template && (char === '\n' || char === '\r')) return undefined;
    if (template && char === '\r') {
      // Template literals read CRLF and CR as LF.
      value += '\n';
      at += code[at + 1] === '\n' ? 2 : 1;
      continue;
    }
    value += char;
    at += 1;
  }
  return undefined;
}

/** The index after the comment or whitespace at `at`, or `at` itself when there is none. */
function skipTrivia(code: string, at: number): number {
  let next = at;
  for (;;) {
    const char = code[next];
    if (char !== undefined && /\s/.test(char)) next += 1;
    else if (code.startsWith('//', next)) {
      const end = code.indexOf('\n', next);
      next = end === -1 ? code.length : end + 1;
    } else if (code.startsWith('/*', next)) {
      const end = code.indexOf('*/', next + 2);
      if (end === -1) return next;
      next = end + 2;
    } else return next;
  }
}

/** The token starting at `code[at]`, or undefined when it is outside the supported subset. */
function readToken(code: string, at: number): { token: ExecToken; next: number } | undefined {
  const char = code[at] as string;
  if (WORD_START.test(char)) {
    let end = at + 1;
    while (end < code.length && WORD_PART.test(code[end] as string)) end += 1;
    return { token: { kind: 'word', value: code.slice(at, end) }, next: end };
  }
  if (char === '"' || char === "'" || char === '`') {
    const string = readString(code, at);
    return string && { token: { kind: 'string', value: string.value }, next: string.next };
  }
  const number = /[\d.]/.test(char) ? NUMBER.exec(code.slice(at, at + 40))?.[0] : undefined;
  if (number !== undefined) {
    return { token: { kind: 'number', value: Number(number) }, next: at + number.length };
  }
  if (PUNCT.has(char) && !(char === '=' && /[=>]/.test(code[at + 1] ?? ''))) {
    return { token: { kind: 'punct', value: char }, next: at + 1 };
  }
  return undefined;
}

/** The code's tokens, or where the first thing outside the supported subset sits. */
export function execCodeTokens(code: string): ExecTokens {
  const tokens: ExecToken[] = [];
  let at = skipTrivia(code, 0);
  while (at < code.length) {
    const read = readToken(code, at);
    if (read === undefined) return { kind: 'unsupported', at };
    tokens.push(read.token);
    at = skipTrivia(code, read.next);
  }
  return { kind: 'tokens', tokens };
}
