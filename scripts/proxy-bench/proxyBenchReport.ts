/**
 * The proxy bench's results: one row per session (cost through the proxy as a % of pass-through,
 * client compactions on each side, those Dense answered, time the client was blocked compacting,
 * pointers, requests forwarded unchanged, the proxy's added latency, why a session cost more, what
 * each side showed of the specifics used next and of the user's messages) and
 * the overall figures, as JSON and as the markdown table printed on stdout. Pure.
 */
import { groundingOverall, type GroundingOverall, type GroundingSides } from './groundingReport.js';
import { intentOverall, type IntentOverall, type IntentSides } from './intentReport.js';
import type { SessionReplay, SideCompactions } from './sessionReplay.js';
import type { WindowSource } from './recordedClientWindow.js';

/** What every bench row says of a session: which one, and what each side paid. */
export interface CostRow {
  readonly file: string;
  readonly source: string;
  readonly model: string;
  readonly calls: number;
  readonly passThroughCost: number;
  readonly proxyCost: number;
  /** proxyCost / passThroughCost × 100. */
  readonly percent: number;
}

export interface SessionRow extends CostRow {
  /** The client's window (tokens) and where the bench read it (recordedClientWindow.ts). */
  readonly window: number;
  readonly windowSource: WindowSource;
  /** The reported context from which the client compacts by itself. */
  readonly threshold: number;
  /** Client compactions on each side (recorded boundaries compacted at + synthetic ones). */
  readonly passThroughCompactions: number;
  readonly proxyCompactions: number;
  readonly passThroughSynthetic: number;
  /** Compaction requests `dense proxy` answered itself. */
  readonly answeredByDense: number;
  /** Time the client waited on its compactions, ms, each side. */
  readonly passThroughBlockedMs: number;
  readonly proxyBlockedMs: number;
  /** Requests the working budget compacted upstream (`compacted`, not the sticky `kept`). */
  readonly budgetCompactions: number;
  /** Requests whose cached prefix changed against the previous one. */
  readonly prefixBreaks: number;
  /** Above `SESSION_LIMIT_PERCENT`: what made it cost more. */
  readonly why?: string;
  /** Pointers in the proxy's last request (they are sticky: each stays once sent). */
  readonly pointers: number;
  /** Requests that carried new pointers (each rewrites the cached prefix from its first edit). */
  readonly batches: number;
  /** Requests the proxy forwarded with nothing removed. */
  readonly unchanged: number;
  /** Requests the proxy could not read (forwarded as they came, pointers repeated or not). */
  readonly unsupported: number;
  readonly addedLatencyMs: readonly number[];
  /** What each side showed of the specifics the agent used next (groundingReport.ts). */
  readonly grounding: GroundingSides;
  /** What each side showed of the user's earlier messages (intentReport.ts). */
  readonly intent: IntentSides;
}

function compactionColumns(compactions: SessionReplay['compactions']) {
  const pass: SideCompactions = compactions.passThrough;
  const proxy: SideCompactions = compactions.proxy;
  return {
    passThroughCompactions: pass.client,
    proxyCompactions: proxy.client,
    passThroughSynthetic: pass.synthetic,
    answeredByDense: proxy.answeredByDense,
    passThroughBlockedMs: pass.blockedMs,
    proxyBlockedMs: proxy.blockedMs,
  };
}

/** Why a session cost more through the proxy, from what its requests did. */
export function whyCostlier(row: Omit<SessionRow, 'why'>): string {
  const reasons: string[] = [];
  if (row.budgetCompactions > 0) {
    reasons.push(`${row.budgetCompactions} working-budget compactions rewrote the cached prefix`);
  }
  if (row.batches > 0) reasons.push(`${row.batches} pointer batches rewrote the cached prefix`);
  if (row.unsupported > 0) reasons.push(`${row.unsupported} requests unreadable`);
  if (row.proxyCompactions < row.passThroughCompactions) {
    reasons.push('the proxy side carried a longer history than the compacted pass-through side');
  }
  return reasons.length > 0 ? reasons.join('; ') : 'no edit to blame: prefix billing differs';
}

export function sessionRow(file: string, source: string, replay: SessionReplay): SessionRow {
  const row = baseRow(file, source, replay);
  return row.percent > SESSION_LIMIT_PERCENT ? { ...row, why: whyCostlier(row) } : row;
}

function baseRow(file: string, source: string, replay: SessionReplay): Omit<SessionRow, 'why'> {
  const { passThrough, proxy, records } = replay;
  return {
    file,
    source,
    model: replay.model,
    calls: replay.calls,
    window: replay.client.window,
    windowSource: replay.client.source,
    threshold: replay.client.threshold,
    passThroughCost: passThrough.cost,
    proxyCost: proxy.cost,
    percent: passThrough.cost > 0 ? (100 * proxy.cost) / passThrough.cost : 100,
    ...compactionColumns(replay.compactions),
    budgetCompactions: records.filter((record) => record.compaction?.kind === 'compacted').length,
    prefixBreaks: records.filter((record) => record.prefixStable === false).length,
    pointers: records.at(-1)?.pointers ?? 0,
    batches: records.filter((record) => record.newEdits > 0).length,
    unchanged: records.filter((record) => record.removedChars === 0).length,
    unsupported: records.filter((record) => record.unsupported !== undefined).length,
    addedLatencyMs: replay.addedLatencyMs,
    grounding: replay.grounding,
    intent: replay.intent,
  };
}

export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const at = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[at] ?? 0;
}

export interface Overall {
  readonly sessions: number;
  readonly calls: number;
  readonly passThroughCost: number;
  readonly proxyCost: number;
  readonly percent: number;
  /** The sessions whose pass-through client compacted at least once. */
  readonly compacted: {
    readonly sessions: number;
    readonly passThroughCost: number;
    readonly proxyCost: number;
    readonly percent: number;
  };
  readonly passThroughCompactions: number;
  readonly proxyCompactions: number;
  readonly answeredByDense: number;
  readonly passThroughBlockedMs: number;
  readonly proxyBlockedMs: number;
  readonly worst: readonly SessionRow[];
  readonly overLimit: number;
  readonly addedLatencyP50Ms: number;
  readonly addedLatencyP99Ms: number;
  readonly grounding: GroundingOverall;
  readonly intent: IntentOverall;
}

type SummedColumn =
  | 'passThroughCompactions'
  | 'proxyCompactions'
  | 'answeredByDense'
  | 'passThroughBlockedMs'
  | 'proxyBlockedMs';

/** A session over this % of pass-through counts as costing more through the proxy. */
export const SESSION_LIMIT_PERCENT = 100.5;

export function overall(rows: readonly SessionRow[]): Overall {
  const passThroughCost = rows.reduce((sum, row) => sum + row.passThroughCost, 0);
  const proxyCost = rows.reduce((sum, row) => sum + row.proxyCost, 0);
  const latency = rows.flatMap((row) => row.addedLatencyMs);
  const compacted = rows.filter((row) => row.passThroughCompactions > 0);
  const compactedPass = compacted.reduce((sum, row) => sum + row.passThroughCost, 0);
  const compactedProxy = compacted.reduce((sum, row) => sum + row.proxyCost, 0);
  const total = (key: SummedColumn) => rows.reduce((sum, row) => sum + row[key], 0);
  return {
    sessions: rows.length,
    compacted: {
      sessions: compacted.length,
      passThroughCost: compactedPass,
      proxyCost: compactedProxy,
      percent: compactedPass > 0 ? (100 * compactedProxy) / compactedPass : 100,
    },
    passThroughCompactions: total('passThroughCompactions'),
    proxyCompactions: total('proxyCompactions'),
    answeredByDense: total('answeredByDense'),
    passThroughBlockedMs: total('passThroughBlockedMs'),
    proxyBlockedMs: total('proxyBlockedMs'),
    calls: rows.reduce((sum, row) => sum + row.calls, 0),
    passThroughCost,
    proxyCost,
    percent: passThroughCost > 0 ? (100 * proxyCost) / passThroughCost : 100,
    worst: [...rows].sort((a, b) => b.percent - a.percent).slice(0, 5),
    overLimit: rows.filter((row) => row.percent > SESSION_LIMIT_PERCENT).length,
    addedLatencyP50Ms: percentile(latency, 50),
    addedLatencyP99Ms: percentile(latency, 99),
    grounding: groundingOverall(rows),
    intent: intentOverall(rows),
  };
}

const k = (units: number): string => `${(units / 1000).toFixed(1)}k`;
const ms = (value: number): string => value.toFixed(1);

const seconds = (value: number): string => `${(value / 1000).toFixed(1)} s`;

export function markdownTable(rows: readonly SessionRow[], total: Overall): string {
  const lines = [
    '| session | calls | pass-through | proxy | % of pass-through | client compactions (pass / proxy) | synthetic (pass) | answered by Dense | blocked (pass / proxy) | budget compactions | pointers | batches | unchanged | unreadable | added ms p50 / p99 |',
    '| --- | --: | --: | --: | --: | --: | --: | --: | --: | --: | --: | --: | --: | --: | --: |',
  ];
  for (const row of rows) {
    lines.push(
      `| ${row.file} | ${row.calls} | ${k(row.passThroughCost)} | ${k(row.proxyCost)} | ${row.percent.toFixed(1)}% | ${row.passThroughCompactions} / ${row.proxyCompactions} | ${row.passThroughSynthetic} | ${row.answeredByDense} | ${seconds(row.passThroughBlockedMs)} / ${seconds(row.proxyBlockedMs)} | ${row.budgetCompactions} | ${row.pointers} | ${row.batches} | ${row.unchanged} | ${row.unsupported} | ${ms(percentile(row.addedLatencyMs, 50))} / ${ms(percentile(row.addedLatencyMs, 99))} |`,
    );
  }
  lines.push(
    `| **all ${total.sessions} sessions** | ${total.calls} | ${k(total.passThroughCost)} | ${k(total.proxyCost)} | **${total.percent.toFixed(1)}%** | ${total.passThroughCompactions} / ${total.proxyCompactions} | ${rows.reduce((s, r) => s + r.passThroughSynthetic, 0)} | ${total.answeredByDense} | ${seconds(total.passThroughBlockedMs)} / ${seconds(total.proxyBlockedMs)} | | | | | | ${ms(total.addedLatencyP50Ms)} / ${ms(total.addedLatencyP99Ms)} |`,
  );
  const over = rows.filter((row) => row.why !== undefined);
  for (const row of over)
    lines.push(
      `\nover ${SESSION_LIMIT_PERCENT}%: ${row.file} (${row.percent.toFixed(1)}%): ${row.why ?? ''}`,
    );
  return lines.join('\n');
}

const WINDOW_SOURCE_NAMES: Readonly<Record<WindowSource, string>> = {
  'codex-recorded-window': "Codex's recorded model_context_window",
  'claude-1m-model': 'a [1m] model id',
  'recorded-usage': 'reported usage past 200k',
  'model-default': 'the model name (nothing recorded)',
  'bench-window': '--window',
};

const tokens = (value: number): string =>
  value >= 1_000_000 ? `${value / 1_000_000}M` : `${Math.round(value / 1000)}k`;

/** Which client windows and thresholds the sessions ran with, and where each was read from. */
export function clientWindowsLine(rows: readonly SessionRow[]): string {
  const groups = new Map<string, number>();
  for (const row of rows) {
    const key =
      `${tokens(row.window)} window, threshold ${row.threshold.toLocaleString('en-US')}, from ` +
      WINDOW_SOURCE_NAMES[row.windowSource];
    groups.set(key, (groups.get(key) ?? 0) + 1);
  }
  const parts = [...groups].map(([key, count]) => `${count} × ${key}`);
  return `client windows: ${parts.join('; ')}`;
}
