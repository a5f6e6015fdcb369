/**
 * Cost per model call by session length, from both sides' bills of one growing session: at each
 * length of pass-through history, the mean cache-weighted cost per call over the calls of the last
 * `band` tokens of growth up to it (long enough to hold a whole working-budget cycle of the proxy
 * side: its compaction's cache write is spread over the calls it saves on), the prompt each side
 * sent at that call and the cost of the session up to it. Units: base input-token prices (a cache
 * read 0.1, a cache write 1.25). Pure.
 */
import type { BilledRequest } from './cacheBillingMock.js';

/** Tokens of growth the mean cost per call is taken over. */
export const DEFAULT_BAND_TOKENS = 50_000;

export interface LengthRow {
  /** The length asked for: pass-through prompt tokens. */
  readonly length: number;
  /** The first call whose pass-through prompt reached `length` (0-based). */
  readonly call: number;
  readonly passThroughPrompt: number;
  readonly proxyPrompt: number;
  /** Calls the mean is taken over. */
  readonly bandCalls: number;
  readonly passThroughPerCall: number;
  readonly proxyPerCall: number;
  /** proxyPerCall / passThroughPerCall × 100. */
  readonly percent: number;
  /** Cost of every call up to and including `call`. */
  readonly passThroughTotal: number;
  readonly proxyTotal: number;
}

const sum = (bills: readonly BilledRequest[]): number =>
  bills.reduce((total, bill) => total + bill.weighted, 0);
const share = (part: number, whole: number): number => (whole > 0 ? (100 * part) / whole : 100);

/**
 * One row per length the pass-through side reached (lengths it never reached are left out).
 * Both bill lists hold one bill per model call, in order (no compaction requests).
 */
export function costByLength(input: {
  readonly passThrough: readonly BilledRequest[];
  readonly proxy: readonly BilledRequest[];
  readonly lengths: readonly number[];
  readonly band?: number;
}): LengthRow[] {
  const { passThrough, proxy } = input;
  if (passThrough.length !== proxy.length) {
    throw Object.assign(new Error('costByLength: the sides billed different numbers of calls'), {
      code: 'BENCH_BILLS_MISMATCH',
    });
  }
  const band = input.band ?? DEFAULT_BAND_TOKENS;
  const rows: LengthRow[] = [];
  for (const length of input.lengths) {
    const call = passThrough.findIndex((bill) => bill.promptTokens >= length);
    if (call === -1) continue;
    const from = passThrough.findIndex((bill) => bill.promptTokens > length - band);
    const passBand = passThrough.slice(from, call + 1);
    const proxyBand = proxy.slice(from, call + 1);
    const passThroughPerCall = sum(passBand) / passBand.length;
    const proxyPerCall = sum(proxyBand) / proxyBand.length;
    rows.push({
      length,
      call,
      passThroughPrompt: passThrough[call]?.promptTokens ?? 0,
      proxyPrompt: proxy[call]?.promptTokens ?? 0,
      bandCalls: passBand.length,
      passThroughPerCall,
      proxyPerCall,
      percent: share(proxyPerCall, passThroughPerCall),
      passThroughTotal: sum(passThrough.slice(0, call + 1)),
      proxyTotal: sum(proxy.slice(0, call + 1)),
    });
  }
  return rows;
}

const k = (units: number): string => `${(units / 1000).toFixed(1)}k`;

export function lengthTable(rows: readonly LengthRow[]): string {
  const lines = [
    '| history (pass-through prompt) | call | prompt pass / proxy | cost per call pass / proxy | per call, % | session so far pass / proxy | so far, % |',
    '| --: | --: | --: | --: | --: | --: | --: |',
  ];
  for (const row of rows) {
    lines.push(
      `| ${k(row.length)} | ${row.call + 1} | ${k(row.passThroughPrompt)} / ${k(row.proxyPrompt)} | ${k(row.passThroughPerCall)} / ${k(row.proxyPerCall)} | ${row.percent.toFixed(1)}% | ${k(row.passThroughTotal)} / ${k(row.proxyTotal)} | ${share(row.proxyTotal, row.passThroughTotal).toFixed(1)}% |`,
    );
  }
  return lines.join('\n');
}
