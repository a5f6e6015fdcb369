/**
 * The specifics of a condensed tool output that an agent is likely to use next, as one short
 * text within a character budget: for a file read, the outline of what the file declares
 * (`name:line`) and the modules and paths it mentions; for any other output, its error lines and
 * paths; then, for both, the names and long numbers it mentions, most frequent first. A compaction summary puts this beside the output's one-line summary so that the
 * names stay visible while the output itself is only recallable. Pure.
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
}

const ERROR_LINE =
  /\b(?:error|errors|fail(?:ed|s|ure|ures)?|exception|cannot|can't|not found|undefined|invalid|denied|missing|unexpected|panic|traceback)\b|\w(?:Error|Exception)\b|✗|×|✕/i;
const ERROR_LINE_MAX = 160;
const MAX_ERROR_LINES = 3;
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

/** Appends `items` to `parts` while the joined text stays within `budget`. */
function fill(
  parts: string[],
  items: readonly string[],
  budget: number,
  used: { chars: number; names: Set<string>; shown: string },
) {
  for (const item of items) {
    const name = item.replace(/:\d+$/, '');
    if (used.names.has(name) || used.shown.includes(name)) continue;
    if (used.chars + item.length + 1 > budget) continue;
    parts.push(item);
    used.names.add(name);
    used.chars += item.length + 1;
  }
}

/**
 * What to keep visible of a condensed output, at most `budgetChars` characters; '' when the
 * output has nothing worth naming or the budget is 0.
 */
export function outputSpecifics(input: OutputSpecificsInput): string {
  const { text, budgetChars } = input;
  if (budgetChars <= 0 || text === '') return '';
  const parts: string[] = [];
  const used = { chars: 0, names: new Set<string>(), shown: input.shown };
  if (input.kind === 'read') {
    const outline = fileOutline(text).map((entry) => `${entry.name}:${entry.line}`);
    fill(parts, outline, budgetChars, used);
    fill(parts, rankedMatches(text, QUOTED_PATH, 4), budgetChars, used);
    fill(parts, rankedMatches(text, PATH, 4), budgetChars, used);
  } else {
    fill(
      parts,
      errorLines(text).map((line) => `"${line}"`),
      budgetChars,
      used,
    );
    fill(parts, rankedMatches(text, PATH, 4), budgetChars, used);
  }
  fill(parts, rankedMatches(text, NAME, 5), budgetChars, used);
  fill(parts, rankedMatches(text, NUMBER, 4), budgetChars, used);
  return parts.join(' ');
}
