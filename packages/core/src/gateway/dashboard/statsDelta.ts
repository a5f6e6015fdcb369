/**
 * The dashboard's counters as plain JSON, for moving them between processes: a replica's delta
 * since its last drain, or a whole timeline's snapshot (the same shape). Merging is addition, field
 * by field, bucket by bucket, so deltas can be added in any order and grouping (into Redis with
 * HINCRBY, or into another `StatsTimeline` with `addDelta`). Counters at zero are left out.
 */
import { COUNTER_KEYS, type CounterKey, type StatsCounters } from './statsCounters.js';

/** Counters with the zero fields left out. */
export type CountersJson = Partial<Record<CounterKey, number>>;

export interface UserDelta {
  /** Minute buckets: start (ms since the epoch, a multiple of 60,000, as a decimal string). */
  readonly minutes?: Readonly<Record<string, CountersJson>>;
  /** Hour buckets (starts a multiple of 3,600,000): minutes past the minute retention. */
  readonly hours?: Readonly<Record<string, CountersJson>>;
  /** Counters past the hour retention: in the totals, in no bucket. */
  readonly older?: CountersJson;
}

export interface StatsDelta {
  readonly version: 1;
  /** Per user name (any string: keys are own properties, never a prototype). */
  readonly users: Readonly<Record<string, UserDelta>>;
}

/** A delta that is not the shape above (from another version or a corrupted store). */
export class StatsDeltaError extends Error {
  readonly code = 'stats-delta-invalid';
  constructor(readonly where: string) {
    super(`invalid stats delta at ${where}`);
    this.name = 'StatsDeltaError';
  }
}

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Counters JSON → counters (missing fields 0); throws `StatsDeltaError` on anything else. */
export function countersFromJson(value: unknown, where: string): StatsCounters {
  if (!isObject(value)) throw new StatsDeltaError(where);
  const out: Record<CounterKey, number> = {
    requests: 0,
    billedMilli: 0,
    passThroughMilli: 0,
    compactionsAnswered: 0,
    compactionsKeptUnder: 0,
    waitingAvoidedMs: 0,
    upstreamTokens: 0,
    clientTokens: 0,
  };
  for (const [key, count] of Object.entries(value)) {
    if (!(COUNTER_KEYS as readonly string[]).includes(key) || !Number.isSafeInteger(count)) {
      throw new StatsDeltaError(`${where}.${key}`);
    }
    out[key as CounterKey] = count as number;
  }
  return out;
}

export function countersToJson(counters: StatsCounters): CountersJson {
  return Object.fromEntries(
    COUNTER_KEYS.filter((key) => counters[key] !== 0).map((key) => [key, counters[key]]),
  );
}

function parseBuckets(value: unknown, where: string, grain: number): void {
  if (value === undefined) return;
  if (!isObject(value)) throw new StatsDeltaError(where);
  for (const [start, counters] of Object.entries(value)) {
    const ms = Number(start);
    if (!/^-?\d+$/.test(start) || !Number.isSafeInteger(ms) || ms % grain !== 0) {
      throw new StatsDeltaError(`${where}[${start}]`);
    }
    countersFromJson(counters, `${where}[${start}]`);
  }
}

/**
 * Checks untrusted JSON (from a shared store or another process) is a `StatsDelta`; throws
 * `StatsDeltaError` naming the first bad place otherwise.
 */
export function parseStatsDelta(value: unknown): StatsDelta {
  if (!isObject(value) || value.version !== 1 || !isObject(value.users)) {
    throw new StatsDeltaError('top level');
  }
  for (const [user, delta] of Object.entries(value.users)) {
    const where = `users[${JSON.stringify(user)}]`;
    if (!isObject(delta)) throw new StatsDeltaError(where);
    parseBuckets(delta.minutes, `${where}.minutes`, 60_000);
    parseBuckets(delta.hours, `${where}.hours`, 3_600_000);
    if (delta.older !== undefined) countersFromJson(delta.older, `${where}.older`);
  }
  return value as unknown as StatsDelta;
}
