/**
 * The dashboard's additive counters: what one proxy request adds, and sums. Every field is an
 * integer so that sums are exact whatever order and grouping they are added in (replicas add their
 * deltas into a shared store): costs in thousandths of a base-input-token unit, waiting in ms.
 *
 * Waiting avoided: the proxy's record carries no measured client wait, so each client compaction
 * avoided counts the client's own compaction wait, `compactionWaitMs` (default 75 s: the middle of
 * the 56–95 s measured with the real clients, docs/clients.md, the bench's figure too), less, for a
 * compaction Dense answered, the time the client waited for Dense's answer (the request's
 * `durationMs`); never below 0.
 */
import type { ProxyRequestRecord } from '../../proxy/meter/proxyRecord.js';

export interface StatsCounters {
  /** Requests recorded (a `count_tokens` probe is one, as in the proxy's totals). */
  readonly requests: number;
  /** Billed prompt cost, thousandths of a base-input-token unit. */
  readonly billedMilli: number;
  /** The same requests passed through unchanged (estimated), same unit. */
  readonly passThroughMilli: number;
  /** Client compaction requests Dense answered without a model call. */
  readonly compactionsAnswered: number;
  /** Times the client's held context passed its threshold while the context it was told did not. */
  readonly compactionsKeptUnder: number;
  /** Client waiting avoided (ms), see the module header. */
  readonly waitingAvoidedMs: number;
  /** Prompt tokens forwarded upstream (reported), summed over priced requests. */
  readonly upstreamTokens: number;
  /** The same requests' prompt tokens as the clients held them (estimated), summed. */
  readonly clientTokens: number;
}

export const COUNTER_KEYS = [
  'requests',
  'billedMilli',
  'passThroughMilli',
  'compactionsAnswered',
  'compactionsKeptUnder',
  'waitingAvoidedMs',
  'upstreamTokens',
  'clientTokens',
] as const satisfies readonly (keyof StatsCounters)[];

export type CounterKey = (typeof COUNTER_KEYS)[number];

export const ZERO_COUNTERS: StatsCounters = {
  requests: 0,
  billedMilli: 0,
  passThroughMilli: 0,
  compactionsAnswered: 0,
  compactionsKeptUnder: 0,
  waitingAvoidedMs: 0,
  upstreamTokens: 0,
  clientTokens: 0,
};

/** The client's own compaction wait counted per compaction avoided (ms). */
export const DEFAULT_COMPACTION_WAIT_MS = 75_000;

export function addCounters(a: StatsCounters, b: StatsCounters): StatsCounters {
  const out = { ...a };
  for (const key of COUNTER_KEYS) out[key] = a[key] + b[key];
  return out;
}

export function isZeroCounters(counters: StatsCounters): boolean {
  return COUNTER_KEYS.every((key) => counters[key] === 0);
}

const milli = (cost: number | undefined): number =>
  cost === undefined || !Number.isFinite(cost) ? 0 : Math.round(cost * 1000);

const whole = (tokens: number | undefined): number =>
  tokens === undefined || !Number.isFinite(tokens) ? 0 : Math.round(tokens);

/** What one stored proxy record (as `ProxyStats.record` returns it, priced) adds. */
export function countersOf(record: ProxyRequestRecord, compactionWaitMs: number): StatsCounters {
  const answered = record.compactionAvoided === 'answered' ? 1 : 0;
  const keptUnder = record.compactionAvoided === 'kept-under' ? 1 : 0;
  const answerMs = Number.isFinite(record.durationMs) ? Math.max(0, record.durationMs) : 0;
  const wait = Math.max(0, Math.round(compactionWaitMs));
  return {
    requests: 1,
    billedMilli: milli(record.cost?.billed),
    passThroughMilli: milli(record.cost?.passThrough),
    compactionsAnswered: answered,
    compactionsKeptUnder: keptUnder,
    waitingAvoidedMs: keptUnder * wait + answered * Math.max(0, wait - Math.round(answerMs)),
    upstreamTokens: whole(record.context?.upstreamTokens),
    clientTokens: whole(record.context?.clientTokens),
  };
}
