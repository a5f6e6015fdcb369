/**
 * How `dense savings` shows its figures to a person: a table per source and a total, then what
 * each column means (which replays, which price table, how waiting is counted), the files that
 * did not import, and the "no transcripts found" message. Pure.
 */
import { CACHE_RULES } from '@dense/core';
import { percentOf } from '../commands/replayFormat.js';
import type { LookedIn } from './findTranscripts.js';
import { PRICE_TABLE_NAME } from './listPrices.js';
import type { SessionReplays } from './replaySavings.js';
import {
  UNTIMED_COMPACTION_WAIT_MS,
  type Kept,
  type SavingsFigures,
  type SavingsSummary,
} from './savingsFigures.js';
import { SOURCE_LABELS } from './transcriptSources.js';

/** Dollars: cents from $10 on, a tenth of a cent below. */
export function dollars(value: number): string {
  return `$${value.toFixed(Math.abs(value) < 10 ? 3 : 2)}`;
}

const int = (value: number) => Math.round(value).toLocaleString('en-US');
const minutes = (ms: number) => `${(ms / 60_000).toFixed(1)} min`;
const kept = (k: Kept) => percentOf(k.visible, k.judged);

function pad(rows: readonly (readonly string[])[]): string {
  const widths = rows[0]?.map((_, col) => Math.max(...rows.map((r) => r[col]?.length ?? 0))) ?? [];
  return rows
    .map((row) =>
      row
        .map((cell, col) =>
          col === 0 ? cell.padEnd(widths[col] ?? 0) : cell.padStart(widths[col] ?? 0),
        )
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

/** The columns of the figures table (text and HTML). */
export const SAVINGS_COLUMNS = [
  'source',
  'sessions',
  'without Dense',
  'with Dense',
  'saved',
  'compactions avoided',
  'waiting avoided',
  'specifics visible',
  "user's words kept",
] as const;

/** Visible without → with Dense, and what Dense left recallable (named by a recall id). */
function groundingCell(f: SavingsFigures): string {
  const w = f.groundingWith;
  const recallable =
    w.recallable === 0 ? '' : ` (+${percentOf(w.recallable, w.judged)} recallable)`;
  return `${kept(f.groundingWithout)} → ${kept(w)}${recallable}`;
}

function row(name: string, f: SavingsFigures): string[] {
  const saved = f.costWithoutUsd - f.costWithUsd;
  return [
    name,
    int(f.sessions),
    dollars(f.costWithoutUsd),
    dollars(f.costWithUsd),
    `${dollars(saved)} (${percentOf(saved, f.costWithoutUsd)})`,
    int(f.clientCompactions),
    minutes(Math.max(0, f.waitWithoutMs - f.waitWithMs)),
    groundingCell(f),
    `${kept(f.wordsWithout)} → ${kept(f.wordsWith)}`,
  ];
}

/** A row per source with sessions, then the total, as cells under `SAVINGS_COLUMNS`. */
export function savingsRows(summary: SavingsSummary): string[][] {
  return [
    ...summary.bySource.map((entry) => row(SOURCE_LABELS[entry.source], entry.figures)),
    row('total', summary.total),
  ];
}

/** The table: a row per source, then the total. */
export function formatSavingsTable(summary: SavingsSummary): string {
  return pad([[...SAVINGS_COLUMNS], ...savingsRows(summary)]);
}

/** Each price entry used, with its cache rules and how many sessions it priced. */
function pricesUsed(sessions: readonly SessionReplays[]): string {
  const used = new Map<string, number>();
  for (const s of sessions) {
    const name = `${s.price.label} $${s.price.inputUsdPerMTok.toFixed(2)}/M input, ${CACHE_RULES[s.price.cacheRules].label}`;
    used.set(name, (used.get(name) ?? 0) + 1);
  }
  return [...used].map(([name, n]) => `${name} (${n} session${n === 1 ? '' : 's'})`).join('; ');
}

function budgetsUsed(sessions: readonly SessionReplays[]): string {
  const budgets = [...new Set(sessions.map((s) => s.budget.budget))].sort((a, b) => a - b);
  return budgets.map(int).join(' / ');
}

/** What the columns mean, for this run's sessions. */
export function formatSavingsNotes(
  summary: SavingsSummary,
  sessions: readonly SessionReplays[],
): string {
  const t = summary.total;
  const gemini = sessions.some((s) => s.source === 'gemini-cli')
    ? " gemini-cli speaks Gemini's API, which the proxy does not serve: its sessions show what the same working budget does in Dense's own CLI."
    : '';
  const untimed =
    t.untimedCompactions === 0
      ? ''
      : ` ${int(t.untimedCompactions)} of them not timed in the transcripts, counted at ${UNTIMED_COMPACTION_WAIT_MS / 1000} s each (the middle of the 56–95 s measured, docs/clients.md);`;
  return [
    'Without Dense: each session replayed as the client ran it, its own compactions as recorded (the `recorded` policy).',
    `With Dense: as \`dense proxy\` would have served it. No replay policy is the proxy itself, so this is the high-density policy with the proxy's default working budget (${budgetsUsed(sessions)} tokens): the proxy's compaction decision and deterministic summary, run offline.${gemini}`,
    `Cost: every model call priced with prompt caching, in dollars at ${PRICE_TABLE_NAME}: ${pricesUsed(sessions)}.`,
    `Compactions avoided: the client's own compactions (${int(t.clientCompactions)}), each a wait for a summary; Dense compacted ${int(t.denseCompactions)} times itself, deterministically, with no model call (${(t.waitWithMs / 1000).toFixed(1)} s in all).`,
    `Waiting avoided: the client's compactions' wait as recorded (${minutes(t.waitWithoutMs)});${untimed} less Dense's own.`,
    "Specifics visible: file paths, line references, names and numbers the agent used next that were still in what each side sent (recallable: not in it, but named by a recall id Dense left, which the agent can ask for); user's words kept: the user's earlier messages at each call, verbatim (or a long paste as head and tail).",
    `Input tokens sent: ${int(t.inputTokensWithout)} without Dense, ${int(t.inputTokensWith)} with. Nothing left this machine.`,
  ].join('\n');
}

/** The files that did not import, with the reason. */
export function formatNotImported(
  failures: readonly { readonly file: string; readonly reason: string }[],
): string {
  const n = failures.length;
  return [
    `Not imported (${n} file${n === 1 ? '' : 's'}; the figures cover the rest):`,
    ...failures.map((f) => `  ${f.file}: ${f.reason}`),
  ].join('\n');
}

function lookedLine(looked: LookedIn): string {
  const where = `${looked.label.padEnd(11)} ${looked.root} (${looked.pattern})`;
  const env = looked.fromEnv === undefined ? '' : ` [from ${looked.fromEnv}]`;
  if (looked.found === 'missing') return `  ${where}${env}: no such folder`;
  const { files, recent } = looked.found;
  return `  ${where}${env}: ${int(files)} transcript file${files === 1 ? '' : 's'}, ${int(recent)} recent enough`;
}

/** Where the run looked and how to point it elsewhere. */
export function formatNothingFound(looked: readonly LookedIn[], since: string): string {
  return [
    `dense savings: no transcripts found (modified within --since ${since}).`,
    'Looked in:',
    ...looked.map(lookedLine),
    'Point it elsewhere with --path <dir|file> (repeatable), set CLAUDE_CONFIG_DIR or CODEX_HOME, or look further back with --since 90d (or --since all).',
  ].join('\n');
}
