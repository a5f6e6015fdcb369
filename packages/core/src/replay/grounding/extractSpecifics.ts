/**
 * The specifics an agent can only have taken from its context: file paths, line numbers with their
 * file, test names, error strings, identifiers and numbers of four or more digits, read off a text
 * by the grounding oracle's own patterns (it shares none with the strategies). Also says whether a
 * specific occurs in another text. Pure.
 */

export const SPECIFIC_KINDS = [
  'path',
  'line-ref',
  'test-name',
  'error',
  'identifier',
  'number',
] as const;

export type SpecificKind = (typeof SPECIFIC_KINDS)[number];

export interface Specific {
  readonly kind: SpecificKind;
  /** The specific as the text has it (a line reference as `file:line`). */
  readonly text: string;
  /** A line reference's file and line. */
  readonly file?: string;
  readonly line?: number;
}

const EXTENSIONS =
  'ts|tsx|js|jsx|mjs|cjs|py|pyi|rb|go|rs|java|kt|scala|c|h|cc|cpp|hpp|cs|php|swift|m|json|jsonl|' +
  'ya?ml|toml|ini|cfg|conf|md|rst|txt|html?|css|scss|vue|svelte|sh|bash|zsh|sql|xml|lock|env|gradle|proto';

interface Pattern {
  readonly kind: SpecificKind;
  readonly regex: RegExp;
  /** The specific a match stands for; `undefined` drops it. */
  readonly make?: (match: RegExpExecArray) => Specific | undefined;
}

const FILE = String.raw`(?:[\w@~.-]+\/)*[\w@~-][\w@~.-]*\.(?:${EXTENSIONS})`;

function lineRef(file: string | undefined, line: string | undefined): Specific | undefined {
  if (file === undefined || line === undefined) return undefined;
  return { kind: 'line-ref', text: `${file}:${line}`, file, line: Number(line) };
}

/**
 * In priority order: a match overlapping an earlier kind's match is not taken (`src/a.ts:12` is
 * one line reference, not also a path and a number).
 */
const PATTERNS: readonly Pattern[] = [
  {
    kind: 'line-ref',
    regex: /\bFile "([^"\n]+)", line (\d+)/g,
    make: (m) => lineRef(m[1], m[2]),
  },
  {
    kind: 'line-ref',
    regex: new RegExp(String.raw`(?<![\w/.-])(\/?${FILE}):(\d+)(?::\d+)?(?!\d)`, 'g'),
    make: (m) => lineRef(m[1], m[2]),
  },
  { kind: 'path', regex: /(?<![\w:/.~-])(?:~|\.\.?)?\/?(?:[\w@.-]+\/)+[\w@.-]*[\w@-]/g },
  { kind: 'path', regex: new RegExp(String.raw`(?<![\w/.-])${FILE}(?![\w])`, 'g') },
  { kind: 'test-name', regex: /\b(?:test_\w+|\w+_test|Test[A-Z]\w*)\b/g },
  {
    kind: 'error',
    regex: /\b(?:[A-Z]\w*(?:Error|Exception)|E[A-Z]{3,}|(?:TS|E)\d{4})\b/g,
  },
  {
    kind: 'identifier',
    regex:
      /\b(?:[a-z][a-z0-9]*(?:[A-Z][a-z0-9]*)+|[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]*)+|[a-zA-Z][a-zA-Z0-9]*(?:_[a-zA-Z0-9]+)+)\b/g,
  },
  { kind: 'number', regex: /(?<![\w.])\d{4,}(?![\w])/g },
];

/** A quoted message saying something failed (`"Cannot find module 'x'"`). */
const QUOTED_ERROR = /"([^"\n]{12,160})"|'([^'\n]{12,160})'|`([^`\n]{12,160})`/g;
const ERROR_WORDS =
  /\b(?:error|fail(?:ed|s|ure)?|cannot|can't|not found|undefined|invalid|denied|missing|unexpected)\b/i;

const MIN_LENGTH: Readonly<Record<SpecificKind, number>> = {
  path: 4,
  'line-ref': 3,
  'test-name': 6,
  error: 4,
  identifier: 5,
  number: 4,
};

function taken(spans: readonly (readonly [number, number])[], start: number, end: number) {
  return spans.some(([s, e]) => start < e && end > s);
}

/**
 * The distinct specifics of `text`, each once, in the order they first occur within each kind.
 * Quoted error messages are taken besides the specifics inside them.
 */
export function extractSpecifics(text: string): Specific[] {
  const spans: [number, number][] = [];
  const found = new Map<string, Specific>();
  const add = (specific: Specific) => {
    if (specific.text.length < MIN_LENGTH[specific.kind]) return;
    const key = `${specific.kind}\u0000${specific.text}`;
    if (!found.has(key)) found.set(key, specific);
  };
  for (const pattern of PATTERNS) {
    for (const match of text.matchAll(pattern.regex)) {
      const start = match.index;
      const end = start + match[0].length;
      if (taken(spans, start, end)) continue;
      const specific = pattern.make ? pattern.make(match) : { kind: pattern.kind, text: match[0] };
      if (specific === undefined) continue;
      spans.push([start, end]);
      add(specific);
    }
  }
  for (const match of text.matchAll(QUOTED_ERROR)) {
    const message = match[1] ?? match[2] ?? match[3] ?? '';
    if (ERROR_WORDS.test(message)) add({ kind: 'error', text: message.trim() });
  }
  return [...found.values()];
}

const WORD_CHAR = /[\w]/;

/** `needle` in `text` with no word character right before or after it. */
function containsToken(text: string, needle: string): boolean {
  for (let at = text.indexOf(needle); at !== -1; at = text.indexOf(needle, at + 1)) {
    const before = at === 0 ? '' : (text[at - 1] ?? '');
    const after = text[at + needle.length] ?? '';
    if (!WORD_CHAR.test(before) && !WORD_CHAR.test(after)) return true;
  }
  return false;
}

/**
 * Whether `text` shows `specific`: a path or an error message as a substring (a relative path
 * inside an absolute one counts); a name or a number as a whole token; a line reference as
 * `file:line`, or its file and `line N` in the same text (a traceback's form).
 */
export function occursIn(specific: Specific, text: string): boolean {
  switch (specific.kind) {
    case 'path':
      return text.includes(specific.text);
    case 'error':
      return /\s/.test(specific.text)
        ? text.includes(specific.text)
        : containsToken(text, specific.text);
    case 'test-name':
    case 'identifier':
    case 'number':
      return containsToken(text, specific.text);
    case 'line-ref': {
      if (text.includes(specific.text)) return true;
      const { file, line } = specific;
      if (file === undefined || line === undefined || !text.includes(file)) return false;
      return new RegExp(String.raw`\bline ${line}\b`).test(text);
    }
    default: {
      const never: never = specific.kind;
      return never;
    }
  }
}
