/**
 * A small glob compiler: `**` (any number of path segments), `*` and `?` (within one segment),
 * `{a,b}` (alternatives, nestable), `[abc]` / `[!abc]` (character classes) and `\` escapes.
 * Matching is case-sensitive, against `/`-separated relative paths; `*` also matches dotfiles.
 */
import { DenseError } from '../../utils/errors.js';

export class InvalidGlobError extends DenseError {
  readonly code = 'INVALID_GLOB';
}

/** True when `text` contains a glob metacharacter. */
export function hasGlobChars(text: string): boolean {
  return /[*?[{]/.test(text);
}

const REGEX_SPECIAL = /[.+^$()|\\/\]}{[*?]/;

function escapeChar(char: string): string {
  return REGEX_SPECIAL.test(char) ? `\\${char}` : char;
}

interface Parsed {
  readonly source: string;
  readonly end: number;
}

function parseStars(pattern: string, at: number): Parsed {
  let end = at;
  while (pattern[end] === '*') end++;
  const segmentStart = at === 0 || pattern[at - 1] === '/';
  const segmentEnd = end === pattern.length || pattern[end] === '/';
  if (end - at >= 2 && segmentStart && segmentEnd) {
    // `**/` may match nothing at all, or any run of whole segments.
    if (pattern[end] === '/') return { source: '(?:.*/)?', end: end + 1 };
    return { source: '.*', end };
  }
  return { source: '[^/]*', end };
}

function parseClass(pattern: string, at: number): Parsed {
  let bodyStart = at + 1;
  const negated = pattern[bodyStart] === '!' || pattern[bodyStart] === '^';
  if (negated) bodyStart++;
  // A `]` first in the class is a member, not the end.
  const close = pattern.indexOf(']', bodyStart + 1);
  const body = close === -1 ? '' : pattern.slice(bodyStart, close);
  if (close === -1 || body.includes('/')) return { source: '\\[', end: at + 1 };
  const escaped = body.replace(/[\\\]^[]/g, (c) => `\\${c}`);
  return { source: negated ? `[^/${escaped}]` : `[${escaped}]`, end: close + 1 };
}

function parseBraces(pattern: string, at: number): Parsed {
  const alternatives: string[] = [];
  let position = at + 1;
  for (;;) {
    const part = parseSequence(pattern, position, true);
    alternatives.push(part.source);
    position = part.end;
    if (pattern[position] === ',') {
      position++;
      continue;
    }
    if (pattern[position] === '}') break;
    throw new InvalidGlobError(
      `Glob pattern "${pattern}" has a "{" at position ${at} without a matching "}".`,
    );
  }
  return { source: `(?:${alternatives.join('|')})`, end: position + 1 };
}

function parseSequence(pattern: string, start: number, inBraces: boolean): Parsed {
  let source = '';
  let at = start;
  while (at < pattern.length) {
    const char = pattern[at] as string;
    if (inBraces && (char === ',' || char === '}')) break;
    let part: Parsed;
    if (char === '*') part = parseStars(pattern, at);
    else if (char === '?') part = { source: '[^/]', end: at + 1 };
    else if (char === '[') part = parseClass(pattern, at);
    else if (char === '{') part = parseBraces(pattern, at);
    else if (char === '\\' && at + 1 < pattern.length) {
      part = { source: escapeChar(pattern[at + 1] as string), end: at + 2 };
    } else part = { source: escapeChar(char), end: at + 1 };
    source += part.source;
    at = part.end;
  }
  return { source, end: at };
}

/** @throws InvalidGlobError for an unbalanced `{`. */
export function globToRegExp(pattern: string): RegExp {
  return new RegExp(`^${parseSequence(pattern, 0, false).source}$`);
}

/**
 * Splits a pattern into the literal directory it starts from and the glob below it:
 * `src/**\/*.ts` → `{ base: 'src', rest: '**\/*.ts' }`; `../x/*.md` → `{ base: '../x', rest: '*.md' }`.
 */
export function splitGlobBase(pattern: string): { readonly base: string; readonly rest: string } {
  const segments = pattern.split('/');
  let literal = 0;
  while (literal < segments.length - 1 && !hasGlobChars(segments[literal] as string)) literal++;
  const baseSegments = segments.slice(0, literal);
  const base = baseSegments.length === 1 && baseSegments[0] === '' ? '/' : baseSegments.join('/');
  return { base: base === '' ? '.' : base, rest: segments.slice(literal).join('/') };
}
