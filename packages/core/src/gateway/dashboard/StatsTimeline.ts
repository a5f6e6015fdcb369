/**
 * The team dashboard's figures over time: per user and per minute, the additive counters of each
 * proxy request (`statsCounters.ts`), bounded by age (`BucketStore.ts`: 2 days of minute buckets,
 * then hour buckets for 90 days, then one `older` total per user, by default). Two days of minutes
 * cover every bucket length `teamStats` picks for a window of up to 2.5 days (240 points of 15
 * minutes); longer windows are drawn in hours. Worst case, a user with a request in every minute,
 * that is about 0.75 MB, twice that while a delta is not drained (`drainDelta` keeps its own copy,
 * bounded alike). A replica records
 * its own requests and hands them on as deltas (`drainDelta`), which other timelines, or a shared
 * store, add (`addDelta`): addition only, so every replica's sum is the same whatever the order.
 *
 * Isolation: `series(user)` and `teamStats(user)` read that user's buckets only; the team's figures
 * are read only when no user is named (the caller decides who may ask for them).
 */
import type { ProxyRequestRecord } from '../../proxy/meter/proxyRecord.js';
import { BucketStore, HOUR_MS, MINUTE_MS, type StoredBucket } from './BucketStore.js';
import {
  addCounters,
  COUNTER_KEYS,
  countersOf,
  DEFAULT_COMPACTION_WAIT_MS,
  ZERO_COUNTERS,
  type CounterKey,
  type StatsCounters,
} from './statsCounters.js';
import { parseStatsDelta, type StatsDelta } from './statsDelta.js';
import { figuresOf, type StatsFigures } from './statsFigures.js';

const DAY_MS = 24 * HOUR_MS;

export interface StatsTimelineOptions {
  /** The clock (ms since the epoch) the retention is measured against; default `Date.now`. */
  readonly now?: () => number;
  /** How long minute buckets are kept before being merged into hour buckets (default 2 days). */
  readonly minuteRetentionMs?: number;
  /** How long hour buckets are kept before being folded into the user's total (default 90 days). */
  readonly hourRetentionMs?: number;
  /** The client's own compaction wait counted per compaction avoided (ms, default 75 s). */
  readonly compactionWaitMs?: number;
}

export interface TimelinePoint {
  /** Bucket start, ms since the epoch (a multiple of the bucket length). */
  readonly start: number;
  readonly counters: StatsCounters;
}

export interface SeriesRange {
  /** Buckets starting at or after this (ms since the epoch); default: all. */
  readonly from?: number;
  /** Buckets starting before this; default: all. */
  readonly to?: number;
}

export type TeamStatsScope =
  { readonly kind: 'team' } | { readonly kind: 'user'; readonly user: string };

export type SeriesPointFigures = { readonly start: number } & StatsFigures;

/** `GET /dense/stats` for a team or one user. */
export interface TeamStatsJson {
  readonly version: 1;
  readonly generatedAt: number;
  readonly scope: TeamStatsScope;
  /** The client compaction wait each compaction avoided counts (see `statsCounters.ts`). */
  readonly compactionWaitSeconds: number;
  /** All time (buckets and older), for the scope. */
  readonly totals: StatsFigures;
  /** All time per user: every user for the team, the asking user alone otherwise. */
  readonly users: Readonly<Record<string, StatsFigures>>;
  /** The scope's buckets over the window, oldest first; empty buckets left out. */
  readonly series: {
    readonly bucketMs: number;
    readonly from: number;
    readonly to: number;
    readonly points: readonly SeriesPointFigures[];
  };
}

export interface TeamStatsOptions {
  /** Bucket length (rounded to whole minutes); default: the finest nice length giving ≤ 240 points. */
  readonly bucketMs?: number;
  /** How far back the series goes (default 7 days). */
  readonly windowMs?: number;
}

/** Bucket lengths `teamStats` picks from. */
const NICE_BUCKETS = [MINUTE_MS, 5 * MINUTE_MS, 15 * MINUTE_MS, HOUR_MS, 6 * HOUR_MS, DAY_MS];
const MAX_POINTS = 240;

/** A bucket length in whole minutes, at least one. */
export function normalBucketMs(bucketMs: number): number {
  const minutes = Number.isFinite(bucketMs) ? Math.round(bucketMs / MINUTE_MS) : 1;
  return Math.max(1, minutes) * MINUTE_MS;
}

/** The finest nice length, no finer than the stored buckets, that fits the span in the points. */
function autoBucketMs(buckets: readonly StoredBucket[]): number {
  if (buckets.length === 0) return MINUTE_MS;
  let first = Infinity;
  let end = -Infinity;
  let grain = MINUTE_MS;
  for (const bucket of buckets) {
    first = Math.min(first, bucket.start);
    end = Math.max(end, bucket.start + bucket.size);
    grain = Math.max(grain, bucket.size);
  }
  const fits = NICE_BUCKETS.find((size) => size >= grain && (end - first) / size <= MAX_POINTS);
  return fits ?? Math.ceil((end - first) / MAX_POINTS / DAY_MS) * DAY_MS;
}

/** Stored buckets summed per bucket of `size`, oldest first. */
function seriesOf(buckets: readonly StoredBucket[], size: number): TimelinePoint[] {
  const sums = new Map<number, Record<CounterKey, number>>();
  for (const bucket of buckets) {
    const start = Math.floor(bucket.start / size) * size;
    let sum = sums.get(start);
    if (sum === undefined) sums.set(start, (sum = { ...ZERO_COUNTERS }));
    for (const key of COUNTER_KEYS) sum[key] += bucket.counters[key];
  }
  return [...sums].sort(([a], [b]) => a - b).map(([start, counters]) => ({ start, counters }));
}

export class StatsTimeline {
  private readonly now: () => number;
  private readonly compactionWaitMs: number;
  /** Everything recorded or added. */
  private readonly all: BucketStore;
  /** Recorded here since the last `drainDelta` (bounded the same way). */
  private readonly pending: BucketStore;

  constructor(options: StatsTimelineOptions = {}) {
    this.now = options.now ?? Date.now;
    this.compactionWaitMs = options.compactionWaitMs ?? DEFAULT_COMPACTION_WAIT_MS;
    const retention = {
      minuteMs: options.minuteRetentionMs ?? 2 * DAY_MS,
      hourMs: options.hourRetentionMs ?? 90 * DAY_MS,
    };
    this.all = new BucketStore(retention);
    this.pending = new BucketStore(retention);
  }

  /**
   * Adds one request of `user`, in the minute of its start (`record.at`). The record is the one
   * `ProxyStats.record` returns (priced: `cost`, `context`, `compactionAvoided`).
   */
  record(user: string, record: ProxyRequestRecord): void {
    const counters = countersOf(record, this.compactionWaitMs);
    const now = this.now();
    for (const store of [this.all, this.pending]) {
      store.compact(now);
      store.addMinute(user, record.at, counters);
    }
  }

  /**
   * What this timeline recorded since the last drain (not what it was given with `addDelta`), as
   * plain JSON; the next drain starts from zero.
   */
  drainDelta(): StatsDelta {
    this.pending.compact(this.now());
    const delta = this.pending.toDelta();
    this.pending.clear();
    return delta;
  }

  /**
   * Adds another timeline's delta (or snapshot). Untrusted JSON is checked first: throws
   * `StatsDeltaError` (nothing added) when it is not a delta.
   */
  addDelta(delta: StatsDelta): void {
    const checked = parseStatsDelta(delta);
    this.all.compact(this.now());
    this.all.addDelta(checked);
  }

  /** Everything held, as a delta: `addDelta` of it into an empty timeline gives the same state. */
  snapshot(): StatsDelta {
    this.all.compact(this.now());
    return this.all.toDelta();
  }

  users(): string[] {
    return this.all.userNames();
  }

  /** All-time counters of `user`, or of the team when no user is named. */
  totals(user?: string): StatsCounters {
    this.all.compact(this.now());
    return this.namesFor(user).reduce(
      (sum, name) => addCounters(sum, this.all.totalOf(name)),
      ZERO_COUNTERS,
    );
  }

  /**
   * The counters of `user` (the team when none) per bucket of `bucketMs` (whole minutes; a stored
   * bucket longer than it, an hour past the minute retention, falls whole in the bucket holding
   * its start), oldest first, empty buckets left out. Counters past the hour retention are in no
   * bucket.
   */
  series(user?: string, bucketMs: number = MINUTE_MS, range: SeriesRange = {}): TimelinePoint[] {
    this.all.compact(this.now());
    return seriesOf(this.storedBuckets(user, range), normalBucketMs(bucketMs));
  }

  /** `/dense/stats`: the team's figures, or only `user`'s when named. */
  teamStats(user?: string, options: TeamStatsOptions = {}): TeamStatsJson {
    const now = this.now();
    this.all.compact(now);
    const names = this.namesFor(user);
    const from = now - (options.windowMs ?? 7 * DAY_MS);
    const buckets = this.storedBuckets(user, { from });
    const bucketMs =
      options.bucketMs === undefined ? autoBucketMs(buckets) : normalBucketMs(options.bucketMs);
    const points = seriesOf(buckets, bucketMs).map((point) => ({
      start: point.start,
      ...figuresOf(point.counters),
    }));
    const perUser = names.map((name) => [name, this.all.totalOf(name)] as const);
    const totals = perUser.reduce((sum, [, counters]) => addCounters(sum, counters), ZERO_COUNTERS);
    return {
      version: 1,
      generatedAt: now,
      scope: user === undefined ? { kind: 'team' } : { kind: 'user', user },
      compactionWaitSeconds: this.compactionWaitMs / 1000,
      totals: figuresOf(totals),
      users: Object.fromEntries(perUser.map(([name, counters]) => [name, figuresOf(counters)])),
      series: { bucketMs, from, to: now, points },
    };
  }

  /** The asking user alone (present or not), or every user for the team. */
  private namesFor(user: string | undefined): string[] {
    return user === undefined ? this.all.userNames() : [user];
  }

  private storedBuckets(user: string | undefined, range: SeriesRange): StoredBucket[] {
    const from = range.from ?? -Infinity;
    const to = range.to ?? Infinity;
    return this.namesFor(user)
      .flatMap((name) => this.all.bucketsOf(name))
      .filter((bucket) => bucket.start >= from && bucket.start < to);
  }
}
