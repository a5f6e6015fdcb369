/**
 * Per-user counters in time buckets, bounded by age: minute buckets for `minuteRetentionMs`, then
 * merged into hour buckets, which are kept for `hourRetentionMs` and then folded into the user's
 * `older` counters (in the totals, in no bucket). Nothing is lost from the totals; memory per user
 * is at most one bucket per active minute of the minute retention plus one per active hour of the
 * hour retention (with `StatsTimeline`'s defaults 2,880 + 2,160; measured, a bucket is about 150
 * bytes of heap). The cutoffs are hour-aligned and only move
 * forward, and counters are routed by the cutoffs at the time they are added, then again at each
 * compaction: the state depends only on what was added and the latest clock reading, not on the
 * order or grouping of the additions.
 */
import {
  addCounters,
  COUNTER_KEYS,
  isZeroCounters,
  ZERO_COUNTERS,
  type CounterKey,
  type StatsCounters,
} from './statsCounters.js';
import {
  countersFromJson,
  countersToJson,
  type CountersJson,
  type StatsDelta,
  type UserDelta,
} from './statsDelta.js';

export const MINUTE_MS = 60_000;
export const HOUR_MS = 3_600_000;

export interface Retention {
  readonly minuteMs: number;
  readonly hourMs: number;
}

/** One stored bucket: its start (ms since the epoch) and length (a minute or an hour). */
export interface StoredBucket {
  readonly start: number;
  readonly size: number;
  readonly counters: StatsCounters;
}

interface UserBuckets {
  readonly minutes: Map<number, StatsCounters>;
  readonly hours: Map<number, StatsCounters>;
  older: StatsCounters;
}

const floorTo = (at: number, size: number): number => Math.floor(at / size) * size;

function addAt(map: Map<number, StatsCounters>, start: number, counters: StatsCounters): void {
  map.set(start, addCounters(map.get(start) ?? ZERO_COUNTERS, counters));
}

function bucketsJson(map: Map<number, StatsCounters>): Record<string, CountersJson> | undefined {
  if (map.size === 0) return undefined;
  const sorted = [...map].sort(([a], [b]) => a - b);
  return Object.fromEntries(
    sorted.map(([start, counters]) => [String(start), countersToJson(counters)]),
  );
}

export class BucketStore {
  private readonly users = new Map<string, UserBuckets>();
  /** Minute buckets start at or after this; hour buckets before it. */
  private minuteCutoff = -Infinity;
  /** Hour buckets start at or after this; earlier counters are `older`. */
  private hourCutoff = -Infinity;

  constructor(private readonly retention: Retention) {}

  /** Adds counters to the bucket holding `at`, at the finest grain its age allows. */
  addMinute(user: string, at: number, counters: StatsCounters): void {
    const start = floorTo(at, MINUTE_MS);
    if (start < this.minuteCutoff) this.addHour(user, start, counters);
    else if (!isZeroCounters(counters)) addAt(this.userOf(user).minutes, start, counters);
  }

  addHour(user: string, at: number, counters: StatsCounters): void {
    const start = floorTo(at, HOUR_MS);
    if (start < this.hourCutoff) this.addOlder(user, counters);
    else if (!isZeroCounters(counters)) addAt(this.userOf(user).hours, start, counters);
  }

  addOlder(user: string, counters: StatsCounters): void {
    if (isZeroCounters(counters)) return;
    const buckets = this.userOf(user);
    buckets.older = addCounters(buckets.older, counters);
  }

  /** Moves the cutoffs to `now` less the retentions (hour-aligned, never back) and re-routes. */
  compact(now: number): void {
    const minuteCutoff = Math.max(
      this.minuteCutoff,
      floorTo(now - this.retention.minuteMs, HOUR_MS),
    );
    const hourCutoff = Math.max(this.hourCutoff, floorTo(now - this.retention.hourMs, HOUR_MS));
    if (minuteCutoff === this.minuteCutoff && hourCutoff === this.hourCutoff) return;
    this.minuteCutoff = minuteCutoff;
    this.hourCutoff = hourCutoff;
    for (const [user, buckets] of this.users) {
      for (const [start, counters] of buckets.minutes) {
        if (start >= minuteCutoff) continue;
        buckets.minutes.delete(start);
        this.addHour(user, start, counters);
      }
      for (const [start, counters] of buckets.hours) {
        if (start >= hourCutoff) continue;
        buckets.hours.delete(start);
        this.addOlder(user, counters);
      }
    }
  }

  /** Adds a delta (already checked with `parseStatsDelta`). */
  addDelta(delta: StatsDelta): void {
    for (const [user, userDelta] of Object.entries(delta.users)) {
      const where = `users[${JSON.stringify(user)}]`;
      for (const [start, json] of Object.entries(userDelta.minutes ?? {})) {
        this.addMinute(user, Number(start), countersFromJson(json, `${where}.minutes`));
      }
      for (const [start, json] of Object.entries(userDelta.hours ?? {})) {
        this.addHour(user, Number(start), countersFromJson(json, `${where}.hours`));
      }
      if (userDelta.older !== undefined) {
        this.addOlder(user, countersFromJson(userDelta.older, `${where}.older`));
      }
    }
  }

  /** Everything held, as a delta. */
  toDelta(): StatsDelta {
    const users: [string, UserDelta][] = [];
    for (const [user, buckets] of this.users) {
      const minutes = bucketsJson(buckets.minutes);
      const hours = bucketsJson(buckets.hours);
      users.push([
        user,
        {
          ...(minutes === undefined ? {} : { minutes }),
          ...(hours === undefined ? {} : { hours }),
          ...(isZeroCounters(buckets.older) ? {} : { older: countersToJson(buckets.older) }),
        },
      ]);
    }
    return { version: 1, users: Object.fromEntries(users) };
  }

  clear(): void {
    this.users.clear();
  }

  userNames(): string[] {
    return [...this.users.keys()];
  }

  has(user: string): boolean {
    return this.users.has(user);
  }

  /** The user's buckets, minute and hour, in no particular order. */
  bucketsOf(user: string): StoredBucket[] {
    const buckets = this.users.get(user);
    if (buckets === undefined) return [];
    return [
      ...[...buckets.minutes].map(([start, counters]) => ({ start, size: MINUTE_MS, counters })),
      ...[...buckets.hours].map(([start, counters]) => ({ start, size: HOUR_MS, counters })),
    ];
  }

  /** All the user's counters, in buckets or older. */
  totalOf(user: string): StatsCounters {
    const buckets = this.users.get(user);
    if (buckets === undefined) return ZERO_COUNTERS;
    const total: Record<CounterKey, number> = { ...buckets.older };
    for (const counters of [...buckets.minutes.values(), ...buckets.hours.values()]) {
      for (const key of COUNTER_KEYS) total[key] += counters[key];
    }
    return total;
  }

  private userOf(user: string): UserBuckets {
    let buckets = this.users.get(user);
    if (buckets === undefined) {
      buckets = { minutes: new Map(), hours: new Map(), older: ZERO_COUNTERS };
      this.users.set(user, buckets);
    }
    return buckets;
  }
}
