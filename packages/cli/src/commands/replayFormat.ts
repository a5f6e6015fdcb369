/**
 * How `dense replay` shows its results to a person: one table for a single session, a row per
 * session plus a total row for several, the totals as a table, and the progress bar. Pure.
 */
import type {
  CacheCostByProvider,
  CacheEffect,
  ReplaySessionReport,
  ReplayTotals,
} from '@dense/core';

const int = (value: number) => Math.round(value).toLocaleString('en-US');
const ms = (value: number) => `${value.toFixed(2)} ms`;
/** A wait in seconds (one decimal), or in ms below a tenth of a second. */
const seconds = (value: number) =>
  value === 0 ? '0 s' : value < 100 ? ms(value) : `${(value / 1000).toFixed(1)} s`;

const percentOrDash = (part: number, whole: number | undefined) =>
  whole === undefined ? '–' : percentOf(part, whole);

/** `part` of `whole` as a percentage, or `–` when there is nothing to divide. */
export function percentOf(part: number, whole: number): string {
  return whole === 0 ? '–' : `${((100 * part) / whole).toFixed(1)}%`;
}

function pad(rows: readonly (readonly string[])[], rightAligned: (column: number) => boolean) {
  const widths =
    rows[0]?.map((_, col) => Math.max(...rows.map((row) => row[col]?.length ?? 0))) ?? [];
  return rows.map((row) =>
    row
      .map((cell, col) => {
        const width = widths[col] ?? 0;
        return rightAligned(col) ? cell.padStart(width) : cell.padEnd(width);
      })
      .join('  ')
      .trimEnd(),
  );
}

type Figures = Omit<ReplayTotals, 'sessions' | 'sessionsCompressed'>;

function staleLine(figures: Figures, key: 'reads' | 'inclusions' | 'shellReads'): string {
  const stale = figures.staleTokens[key];
  const reclaimed = figures.staleReclaimedTokens[key];
  return `${int(reclaimed)} of ${int(stale)} (${percentOf(reclaimed, stale)})`;
}

/** The metric rows every vertical table shows. */
function metricRows(figures: Figures): [string, string][] {
  const removed = figures.densityRemovedTokens;
  const depth = figures.historyRewriteDepth;
  return [
    [
      'turns / model calls / tool calls',
      `${int(figures.turns)} / ${int(figures.modelCalls)} / ${int(figures.toolCalls)}`,
    ],
    ['cumulative input tokens', int(figures.cumulativeInputTokens)],
    ['cache-weighted input tokens', int(figures.cacheWeightedInputTokens)],
    [
      'peak / final context tokens',
      `${int(figures.peakContextTokens)} / ${int(figures.finalContextTokens)}`,
    ],
    ['compressions', int(figures.compressions)],
    [
      'density removed (read→write / dedup / recency)',
      `${int(removed.readWrite)} / ${int(removed.dedup)} / ${int(removed.recency)}`,
    ],
    ['stale reads reclaimed', staleLine(figures, 'reads')],
    ['stale inclusions reclaimed', staleLine(figures, 'inclusions')],
    ['stale shell reads reclaimed', staleLine(figures, 'shellReads')],
    [
      'live file content lost (density / compression)',
      `${int(figures.liveLostTokensBy.density)} / ${int(figures.liveLostTokensBy.compression)}`,
    ],
    ['duplicate copies reclaimed', int(figures.duplicateReclaimedTokens)],
    [
      'history rewrites (mean depth)',
      `${int(figures.historyRewrites)} (${depth.meanEntries.toFixed(1)} entries, ${int(depth.meanTokens)} tokens)`,
    ],
    [
      'density overhead median / p99',
      `${ms(figures.densityOverheadMs.median)} / ${ms(figures.densityOverheadMs.p99)}`,
    ],
    [
      'time blocked by compactions (longest)',
      `${seconds(figures.timeBlocked?.totalMs ?? 0)} (${seconds(figures.timeBlocked?.maxMs ?? 0)})`,
    ],
    [
      'synthetic responses / overflow calls',
      `${int(figures.syntheticResponses)} / ${int(figures.overflowCalls)}`,
    ],
    ...groundingRows(figures),
  ];
}

/** Grounding rate: specifics used next that the policy still showed, of all used. */
function groundingCell(figures: Pick<Figures, 'grounding'>): string {
  const g = figures.grounding;
  return g === undefined ? '–' : percentOf(g.visible, g.specifics);
}

function groundingRows(figures: Figures): [string, string][] {
  const { grounding: g, workRedone: w } = figures;
  const rows: [string, string][] = [];
  if (g !== undefined) {
    rows.push([
      'grounding: visible / recallable / hidden',
      `${groundingCell(figures)} (${int(g.visible)} / ${int(g.recallable)} / ${int(g.hidden)} of ${int(g.specifics)})`,
    ]);
  }
  if (w !== undefined) {
    rows.push([
      'work redone after compaction (kept in context)',
      `${int(w.redone)} (${int(w.keptInContext)})`,
    ]);
  }
  return rows;
}

/** The file's base name (`#n` for a multi-session file), `!` when its import looks incomplete. */
function sessionName(report: ReplaySessionReport): string {
  const base = report.file.split(/[\\/]/).pop() ?? report.file;
  const name = report.sessionIndex === 0 ? base : `${base}#${report.sessionIndex}`;
  return report.importProblem === undefined ? name : `${name} !`;
}

/** The note under a table whose sessions include an incomplete import. */
export const INCOMPLETE_IMPORT_NOTE =
  '! incomplete import (see the warning on stderr): the figures cover only what was imported.';

/** One session, all its figures, as a two-column table. */
export function formatSessionReport(report: ReplaySessionReport): string {
  const limit = report.contextLimit === null ? 'none (lifted)' : int(report.contextLimit);
  const rows: [string, string][] = [
    ['session', `${sessionName(report)} (${report.format})`],
    ['strategy / context limit', `${report.strategy} / ${limit}`],
    ...metricRows(report),
    [
      'first compression turn',
      report.firstCompressionTurn === null ? '–' : String(report.firstCompressionTurn),
    ],
  ];
  if (report.summarizer !== null) rows.push(['summaries written by', report.summarizer]);
  if (report.importProblem !== undefined) rows.push(['import problem', report.importProblem]);
  return pad(rows, () => false).join('\n');
}

/** The totals over several sessions as a two-column table. */
export function formatTotals(totals: ReplayTotals): string {
  const rows: [string, string][] = [
    ['sessions (compressed)', `${int(totals.sessions)} (${int(totals.sessionsCompressed)})`],
    ...metricRows(totals),
  ];
  return pad(rows, () => false).join('\n');
}

/** The baselines' reports, session by session in the same order, for the `% of` columns. */
export interface SessionBaselines {
  readonly none: readonly ReplaySessionReport[];
  readonly recorded: readonly ReplaySessionReport[];
}

const anthropicCost = (f: { readonly cacheCost: CacheCostByProvider }) =>
  f.cacheCost.anthropic.weightedTokens;

/** A row per session and a total row: the overview of a directory replay. */
export function formatSessionRows(
  reports: readonly ReplaySessionReport[],
  totals: ReplayTotals,
  baselines?: SessionBaselines,
): string {
  const costOf = (list: readonly ReplaySessionReport[] | undefined, index: number | 'total') => {
    if (list?.length !== reports.length) return undefined;
    if (index !== 'total') return list[index]?.cacheCost.anthropic.weightedTokens;
    return list.reduce((sum, report) => sum + anthropicCost(report), 0);
  };
  const vs = (f: Figures, index: number | 'total') => [
    percentOrDash(anthropicCost(f), costOf(baselines?.none, index)),
    percentOrDash(anthropicCost(f), costOf(baselines?.recorded, index)),
    seconds(f.timeBlocked?.totalMs ?? 0),
  ];
  const header = [
    'session',
    'format',
    'calls',
    'input',
    'cache-wtd',
    'peak',
    'final',
    'compr',
    'stale reads',
    'live lost',
    'grounded',
    'cost % none',
    'cost % recorded',
    'blocked',
  ];
  const row = (name: string, format: string, f: Figures, index: number | 'total'): string[] => [
    name,
    format,
    int(f.modelCalls),
    int(f.cumulativeInputTokens),
    int(f.cacheWeightedInputTokens),
    int(f.peakContextTokens),
    int(f.finalContextTokens),
    int(f.compressions),
    percentOf(f.staleReclaimedTokens.reads, f.staleTokens.reads),
    int(f.liveLostTokens),
    groundingCell(f),
    ...vs(f, index),
  ];
  const rows = [
    header,
    ...reports.map((r, i) => row(sessionName(r), r.format, r, i)),
    row('total', '', totals, 'total'),
  ];
  const table = pad(rows, (col) => col >= 2).join('\n');
  const incomplete = reports.some((r) => r.importProblem !== undefined);
  return incomplete ? `${table}\n${INCOMPLETE_IMPORT_NOTE}` : table;
}

/** `[#####-----] 12/40 name`, cut to `width` characters. */
export function formatProgressBar(done: number, total: number, label: string, width = 80): string {
  const slots = 20;
  const filled = total === 0 ? slots : Math.round((slots * done) / total);
  const bar = `[${'#'.repeat(filled)}${'-'.repeat(slots - filled)}] ${done}/${total} ${label}`;
  return bar.length <= width ? bar : `${bar.slice(0, width - 1)}…`;
}

const signed = (value: number) => `${value > 0 ? '+' : ''}${int(value)}`;
const ratio = (value: number | null) => (value === null ? '–' : `${(100 * value).toFixed(1)}%`);

/**
 * What the policy did against `none` on the same sessions once prompt caching is priced:
 * input saved, cache reads and writes gained or lost, and the cost per provider.
 */
export function formatCacheEffect(effect: CacheEffect): string {
  const { anthropic, openai } = effect.byProvider;
  const rows: [string, string][] = [
    ['vs none: input tokens saved', int(effect.inputTokensSaved)],
    [
      'vs none: cache reads / writes (Anthropic)',
      `${signed(anthropic.cacheReadTokens)} / ${signed(anthropic.cacheWriteTokens)}`,
    ],
    [
      'vs none: cost, Anthropic 5m / OpenAI',
      `${ratio(anthropic.ratioToNone)} (${signed(anthropic.weightedTokens)}) / ` +
        `${ratio(openai.ratioToNone)} (${signed(openai.weightedTokens)})`,
    ],
  ];
  return pad(rows, () => false).join('\n');
}

/** The cost against the agent's own compaction (`recorded`) on the same sessions. */
export function formatVsRecorded(effect: CacheEffect): string {
  const { anthropic, openai } = effect.byProvider;
  const rows: [string, string][] = [
    [
      "vs the agent's own compaction: cost, Anthropic 5m / OpenAI",
      `${ratio(anthropic.ratioToNone)} (${signed(anthropic.weightedTokens)}) / ` +
        `${ratio(openai.ratioToNone)} (${signed(openai.weightedTokens)})`,
    ],
  ];
  return pad(rows, () => false).join('\n');
}
