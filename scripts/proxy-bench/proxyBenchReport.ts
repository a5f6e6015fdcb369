/**
 * The proxy bench's results: one row per session (cost through the proxy as a % of pass-through,
 * compactions on each side, pointers, requests forwarded unchanged, the proxy's added latency) and
 * the overall figures, as JSON and as the markdown table printed on stdout. Pure.
 */
import type { SessionReplay } from './replayThroughProxy.js';

export interface SessionRow {
  readonly file: string;
  readonly source: string;
  readonly model: string;
  readonly calls: number;
  readonly passThroughCost: number;
  readonly proxyCost: number;
  /** proxyCost / passThroughCost × 100. */
  readonly percent: number;
  readonly passThroughCompactions: number;
  readonly proxyCompactions: number;
  /** Pointers in the proxy's last request (they are sticky: each stays once sent). */
  readonly pointers: number;
  /** Requests that carried new pointers (each rewrites the cached prefix from its first edit). */
  readonly batches: number;
  /** Requests the proxy forwarded with nothing removed. */
  readonly unchanged: number;
  /** Requests the proxy could not read (forwarded as they came, pointers repeated or not). */
  readonly unsupported: number;
  readonly addedLatencyMs: readonly number[];
}

export function sessionRow(file: string, source: string, replay: SessionReplay): SessionRow {
  const { passThrough, proxy, records } = replay;
  return {
    file,
    source,
    model: replay.model,
    calls: replay.calls,
    passThroughCost: passThrough.cost,
    proxyCost: proxy.cost,
    percent: passThrough.cost > 0 ? (100 * proxy.cost) / passThrough.cost : 100,
    passThroughCompactions: passThrough.compactions,
    proxyCompactions: proxy.compactions,
    pointers: records.at(-1)?.pointers ?? 0,
    batches: records.filter((record) => record.newEdits > 0).length,
    unchanged: records.filter((record) => record.removedChars === 0).length,
    unsupported: records.filter((record) => record.unsupported !== undefined).length,
    addedLatencyMs: replay.addedLatencyMs,
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
  readonly worst: readonly SessionRow[];
  readonly overLimit: number;
  readonly addedLatencyP50Ms: number;
  readonly addedLatencyP99Ms: number;
}

/** A session over this % of pass-through counts as costing more through the proxy. */
export const SESSION_LIMIT_PERCENT = 100.5;

export function overall(rows: readonly SessionRow[]): Overall {
  const passThroughCost = rows.reduce((sum, row) => sum + row.passThroughCost, 0);
  const proxyCost = rows.reduce((sum, row) => sum + row.proxyCost, 0);
  const latency = rows.flatMap((row) => row.addedLatencyMs);
  return {
    sessions: rows.length,
    calls: rows.reduce((sum, row) => sum + row.calls, 0),
    passThroughCost,
    proxyCost,
    percent: passThroughCost > 0 ? (100 * proxyCost) / passThroughCost : 100,
    worst: [...rows].sort((a, b) => b.percent - a.percent).slice(0, 5),
    overLimit: rows.filter((row) => row.percent > SESSION_LIMIT_PERCENT).length,
    addedLatencyP50Ms: percentile(latency, 50),
    addedLatencyP99Ms: percentile(latency, 99),
  };
}

const k = (units: number): string => `${(units / 1000).toFixed(1)}k`;
const ms = (value: number): string => value.toFixed(1);

export function markdownTable(rows: readonly SessionRow[], total: Overall): string {
  const lines = [
    '| session | calls | pass-through | proxy | % of pass-through | compactions (pass / proxy) | pointers | batches | unchanged | unreadable | added ms p50 / p99 | grounding | recall calls |',
    '| --- | --: | --: | --: | --: | --: | --: | --: | --: | --: | --: | --- | --- |',
  ];
  for (const row of rows) {
    lines.push(
      `| ${row.file} | ${row.calls} | ${k(row.passThroughCost)} | ${k(row.proxyCost)} | ${row.percent.toFixed(1)}% | ${row.passThroughCompactions} / ${row.proxyCompactions} | ${row.pointers} | ${row.batches} | ${row.unchanged} | ${row.unsupported} | ${ms(percentile(row.addedLatencyMs, 50))} / ${ms(percentile(row.addedLatencyMs, 99))} | n/a (not yet) | n/a (not yet) |`,
    );
  }
  lines.push(
    `| **all ${total.sessions} sessions** | ${total.calls} | ${k(total.passThroughCost)} | ${k(total.proxyCost)} | **${total.percent.toFixed(1)}%** | ${rows.reduce((s, r) => s + r.passThroughCompactions, 0)} / ${rows.reduce((s, r) => s + r.proxyCompactions, 0)} | | | | | ${ms(total.addedLatencyP50Ms)} / ${ms(total.addedLatencyP99Ms)} | | |`,
  );
  return lines.join('\n');
}
