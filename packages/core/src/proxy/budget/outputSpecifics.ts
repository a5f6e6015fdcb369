/**
 * The specifics of a condensed tool output that an agent is likely to use next, as one short
 * text within a character budget: for a file read, the outline of what the file declares
 * (`name:line`), the error messages its code spells out and the modules and paths it mentions;
 * for any other output, its error lines and paths; then, for both, the names and long numbers it
 * mentions, most frequent first. When the agent already mentioned some of them after the output,
 * those go first (what it re-touched is what it uses next). A compaction summary puts this beside
 * the output's one-line summary so that the names stay visible while the output itself is only
 * recallable. Pure; an output's ranking is kept with its block (`source`), since each later
 * compaction of a region that holds it ranks it again.
 */
import { clip } from '../../core/compression/density/compress/summaryText.js';
import type { ToolKind } from '../../core/compression/density/compress/toolSummaryFacts.js';
import { fileOutline } from './fileOutline.js';

export interface OutputSpecificsInput {
  readonly kind: ToolKind;
  /** The tool's own output. */
  readonly text: string;
  /** Text already shown beside it (the summary line): what it holds is not repeated. */
  readonly shown: string;
  /** Characters the result may take; 0 gives ''. */
  readonly budgetChars: number;
  /** Whether the agent mentioned a name, number or path after the output (kept first). */
  readonly mentioned?: (token: string) => boolean;
  /** The output's block (immutable): its ranking, a function of `kind` and `text`, kept with it. */
  readonly source?: object;
  /**
   * For a read whose lines carry no numbers, the file line its output starts at (a shell read of
   * a range; default 1); null where that is not known (its outline then names without lines).
   */
  readonly firstLine?: number | null;
}

const ERROR_LINE =
  /\b(?:error|errors|fail(?:ed|s|ure|ures)?|exception|cannot|can't|not found|undefined|invalid|denied|missing|unexpected|panic|traceback)\b|\w(?:Error|Exception)\b|✗|×|✕/i;
const ERROR_LINE_MAX = 160;
const MAX_ERROR_LINES = 3;
/** A string literal in code, of a length a message has. */
const STRING_LITERAL = /"([^"\n\\]{8,120})"|'([^'\n\\]{8,120})'|`([^`\n\\]{8,120})`/g;
const ERROR_WORDS =
  /\b(?:error|errors|fail(?:ed|s|ure)?|exception|cannot|can't|not found|invalid|denied|missing|unexpected)\b/i;
const MAX_ERROR_LITERALS = 6;
/** Prefixes a numbered read puts before each line. */
const NUMBER_PREFIX = /^\s*\d+(?:→|\t)/;
const PATH =
  /(?:~|\.\.?)?\/?(?:[\w@.-]+\/)+[\w@.-]*[\w@-](?::\d+)?|\b[\w@-][\w@.-]*\.[a-z]{1,5}:\d+|\b[\w-]+\.(?:ts|tsx|js|jsx|mjs|py|rb|go|rs|java|json|md|sql|sh|ya?ml|toml|css|html)\b/g;
const NAME =
  /\b(?:[a-z][a-z0-9]*(?:[A-Z][a-z0-9]*)+|[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]*)+|[a-zA-Z][a-zA-Z0-9]*(?:_[a-zA-Z0-9]+)+)\b/g;
const NUMBER = /(?<![\w.])\d{4,}(?!\w)/g;
/** A quoted module or file path in code: `from '@/lib/db'`, `require("./util")`. */
const QUOTED_PATH = /['"`]([\w@~.-]*\/[\w@~./-]+)['"`]/g;

/**
 * Distinct matches of `pattern` in `text` (its first group when it has one), most frequent first
 * (ties: first seen first).
 */
function rankedMatches(text: string, pattern: RegExp, minLength: number): string[] {
  const counts = new Map<string, number>();
  for (const match of text.matchAll(pattern)) {
    const token = match[1] ?? match[0];
    if (token.length >= minLength) counts.set(token, (counts.get(token) ?? 0) + 1);
  }
  return [...counts.entries()].sort((a, b) => b[1] - a[1]).map(([token]) => token);
}

function errorLines(text: string): string[] {
  const found: string[] = [];
  for (const line of text.split('\n')) {
    if (!ERROR_LINE.test(line)) continue;
    const clipped = clip(line.replace(NUMBER_PREFIX, ''), ERROR_LINE_MAX);
    if (clipped !== '' && !found.includes(clipped)) found.push(clipped);
    if (found.length === MAX_ERROR_LINES) break;
  }
  return found;
}

/** The messages a source file's string literals spell out when they say something failed. */
function errorLiterals(text: string): string[] {
  const found: string[] = [];
  for (const match of text.matchAll(STRING_LITERAL)) {
    const literal = (match[1] ?? match[2] ?? match[3] ?? '').trim();
    if (!ERROR_WORDS.test(literal) || found.includes(literal)) continue;
    found.push(literal);
    if (found.length === MAX_ERROR_LITERALS) break;
  }
  return found;
}

/** The name an item stands for: a path or name without its `:line`, a quoted line as is. */
const nameOf = (item: string): string => item.replace(/:\d+$/, '');

type Groups = readonly (readonly string[])[];

/** The rankings kept per output block, by kind. */
const RANKED = new WeakMap<object, Map<ToolKind, Groups>>();

/** The output's specifics in groups, best group first: a function of its kind and text. */
function groupsOf(kind: ToolKind, text: string, firstLine: number | null = 1): Groups {
  const groups: string[][] =
    kind === 'read'
      ? [
          fileOutline(text, firstLine).map((entry) =>
            entry.line === undefined ? entry.name : `${entry.name}:${entry.line}`,
          ),
          errorLiterals(text).map(quoted),
          rankedMatches(text, QUOTED_PATH, 4),
          rankedMatches(text, PATH, 4),
        ]
      : [errorLines(text).map(quoted), rankedMatches(text, PATH, 4)];
  groups.push(rankedMatches(text, NAME, 5), rankedMatches(text, NUMBER, 4));
  return groups;
}

function keptGroupsOf(input: Omit<OutputSpecificsInput, 'budgetChars'>): Groups {
  if (input.source === undefined) return groupsOf(input.kind, input.text, input.firstLine);
  let byKind = RANKED.get(input.source);
  if (byKind === undefined) {
    byKind = new Map();
    RANKED.set(input.source, byKind);
  }
  let groups = byKind.get(input.kind);
  if (groups === undefined) {
    groups = groupsOf(input.kind, input.text, input.firstLine);
    byKind.set(input.kind, groups);
  }
  return groups;
}

const quoted = (line: string) => `"${line}"`;

/**
 * The items of a condensed output worth naming, best first, each name once and none `shown`
 * already holds: see the module header for the order. Cheap to cut to any budget with
 * `specificsWithin`; computed once per output.
 */
export function rankedSpecifics(input: Omit<OutputSpecificsInput, 'budgetChars'>): string[] {
  const { text, mentioned } = input;
  if (text === '') return [];
  const groups = keptGroupsOf(input);
  return distinctItems(
    [
      ...(input.kind === 'read' ? [] : (groups[0] ?? [])),
      ...(mentioned === undefined ? [] : groups.flat().filter((item) => mentioned(nameOf(item)))),
      ...groups.flat(),
    ],
    input.shown,
  );
}

/** `ordered` with each name once, none that `shown` holds. */
function distinctItems(ordered: readonly string[], shown: string): string[] {
  const names = new Set<string>();
  return ordered.filter((item) => {
    const name = nameOf(item);
    if (names.has(name) || shown.includes(name)) return false;
    names.add(name);
    return true;
  });
}

/** The distinct code names `text` mentions (camelCase, PascalCase, snake_case; 5+ characters). */
export function codeNames(text: string): Set<string> {
  const names = new Set<string>();
  for (const match of text.matchAll(NAME)) if (match[0].length >= 5) names.add(match[0]);
  return names;
}

/**
 * The paths, names and long numbers a prose text mentions (the part of a subagent's report a
 * summary leaves out), best first: those `mentioned` holds, then paths, names and numbers, each
 * most frequent first; each once, none that `shown` holds.
 */
export function proseSpecifics(
  text: string,
  shown: string,
  mentioned?: (token: string) => boolean,
): string[] {
  const items = [
    ...rankedMatches(text, QUOTED_PATH, 4),
    ...rankedMatches(text, PATH, 4),
    ...rankedMatches(text, NAME, 5),
    ...rankedMatches(text, NUMBER, 4),
  ];
  const lead = mentioned === undefined ? [] : items.filter((item) => mentioned(nameOf(item)));
  return distinctItems([...lead, ...items], shown);
}

/** As many of `items` (in order, skipping those that do not fit) as `budgetChars` holds, joined. */
export function specificsWithin(items: readonly string[], budgetChars: number): string {
  const parts: string[] = [];
  let chars = 0;
  for (const item of items) {
    if (chars + item.length + 1 > budgetChars) continue;
    parts.push(item);
    chars += item.length + 1;
  }
  return parts.join(' ');
}

/**
 * What to keep visible of a condensed output, at most `budgetChars` characters; '' when the
 * output has nothing worth naming or the budget is 0.
 */
export function outputSpecifics(input: OutputSpecificsInput): string {
  if (input.budgetChars <= 0) return '';
  return specificsWithin(rankedSpecifics(input), input.budgetChars);
}
