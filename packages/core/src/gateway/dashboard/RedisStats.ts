/**
 * The team's dashboard counters summed on Redis: each replica pushes the deltas its own timeline
 * drained (one MULTI of HINCRBYs, every few seconds, never on a request's path), and a reader
 * rebuilds the team's timeline from the sums. Layout per user (names URI-encoded in keys): minute
 * counters in one hash per day (`…:d:<dayStart>`, expiring after `minuteDays` + 1 days), hour
 * counters in one hash (`…:h`, expiring after `hourDays` of no push), older counters in `…:o`, and
 * the set of users. Addition only: pushes from any replica, in any order, give the same sums.
 */
import type { RedisClientType } from 'redis';
import { StatsTimeline } from './StatsTimeline.js';
import { parseStatsDelta, type CountersJson, type StatsDelta } from './statsDelta.js';
import { answeredWithin } from '../../utils/answeredWithin.js';

const DAY_MS = 24 * 60 * 60_000;

export interface RedisStatsOptions {
  readonly client: RedisClientType;
  readonly prefix?: string;
  /** Days of minute counters kept (the dashboard's default window is 7). */
  readonly minuteDays?: number;
  readonly hourDays?: number;
  readonly timeoutMs?: number;
  readonly now?: () => number;
}

type Fields = Record<string, number>;

export class RedisStats {
  private readonly client: RedisClientType;
  private readonly prefix: string;
  private readonly minuteDays: number;
  private readonly hourDays: number;
  private readonly timeoutMs: number;
  private readonly now: () => number;
  /** Deltas whose push failed, pushed again first next time. */
  private pending: StatsDelta[] = [];

  constructor(options: RedisStatsOptions) {
    this.client = options.client;
    this.prefix = `${options.prefix ?? 'dense:'}stats:`;
    this.minuteDays = options.minuteDays ?? 8;
    this.hourDays = options.hourDays ?? 90;
    this.timeoutMs = options.timeoutMs ?? 2_000;
    this.now = options.now ?? Date.now;
  }

  private userKey(user: string): string {
    return `${this.prefix}u:${encodeURIComponent(user)}`;
  }

  /** Adds `delta` (and any earlier delta whose push failed) to the sums; false when it failed. */
  async push(delta: StatsDelta): Promise<boolean> {
    const deltas = [...this.pending, delta].filter((d) => Object.keys(d.users).length > 0);
    if (deltas.length === 0) return true;
    const multi = this.client.multi();
    for (const { users } of deltas) {
      for (const [user, own] of Object.entries(users)) {
        const key = this.userKey(user);
        multi.sAdd(`${this.prefix}users`, user);
        const byDay = new Map<number, Fields>();
        for (const [start, counters] of Object.entries(own.minutes ?? {})) {
          const day = Math.floor(Number(start) / DAY_MS) * DAY_MS;
          const fields = byDay.get(day) ?? {};
          addFields(fields, start, counters);
          byDay.set(day, fields);
        }
        for (const [day, fields] of byDay) {
          for (const [field, count] of Object.entries(fields))
            multi.hIncrBy(`${key}:d:${day}`, field, count);
          multi.pExpireAt(`${key}:d:${day}`, day + (this.minuteDays + 1) * DAY_MS);
        }
        const hours: Fields = {};
        for (const [start, counters] of Object.entries(own.hours ?? {}))
          addFields(hours, start, counters);
        for (const [field, count] of Object.entries(hours)) multi.hIncrBy(`${key}:h`, field, count);
        for (const [counter, count] of Object.entries(own.older ?? {}))
          multi.hIncrBy(`${key}:o`, counter, count);
        multi.pExpire(`${key}:h`, this.hourDays * DAY_MS);
      }
    }
    try {
      await answeredWithin(multi.exec(), this.timeoutMs);
      this.pending = [];
      return true;
    } catch {
      this.pending = deltas;
      return false;
    }
  }

  /** The team's timeline from the sums (undefined when Redis does not answer). */
  async timeline(): Promise<StatsTimeline | undefined> {
    try {
      return await answeredWithin(this.read(), this.timeoutMs);
    } catch {
      return undefined;
    }
  }

  private async read(): Promise<StatsTimeline> {
    const users = await this.client.sMembers(`${this.prefix}users`);
    const today = Math.floor(this.now() / DAY_MS) * DAY_MS;
    const reads = users.map(async (user) => {
      const key = this.userKey(user);
      const days = Array.from({ length: this.minuteDays + 1 }, (_, i) => today - i * DAY_MS);
      const [minuteHashes, hours, older] = await Promise.all([
        Promise.all(days.map((day) => this.client.hGetAll(`${key}:d:${day}`))),
        this.client.hGetAll(`${key}:h`),
        this.client.hGetAll(`${key}:o`),
      ]);
      const minutes: Record<string, CountersJson> = {};
      for (const hash of minuteHashes) bucketsInto(minutes, hash);
      const hourBuckets: Record<string, CountersJson> = {};
      bucketsInto(hourBuckets, hours);
      const olderCounters = Object.fromEntries(
        Object.entries(older).map(([counter, count]) => [counter, Number(count)]),
      );
      return [user, { minutes, hours: hourBuckets, older: olderCounters }] as const;
    });
    const delta = parseStatsDelta({
      version: 1,
      users: Object.fromEntries(await Promise.all(reads)),
    });
    const timeline = new StatsTimeline({ now: this.now });
    timeline.addDelta(delta);
    return timeline;
  }
}

/** `<start>:<counter>` fields of one bucket set. */
function addFields(fields: Fields, start: string, counters: CountersJson): void {
  for (const [counter, count] of Object.entries(counters)) {
    const field = `${start}:${counter}`;
    fields[field] = (fields[field] ?? 0) + (count ?? 0);
  }
}

function bucketsInto(buckets: Record<string, CountersJson>, hash: Record<string, string>): void {
  for (const [field, count] of Object.entries(hash)) {
    const colon = field.indexOf(':');
    const start = field.slice(0, colon);
    const counter = field.slice(colon + 1) as keyof CountersJson;
    const bucket = (buckets[start] ??= {});
    bucket[counter] = (bucket[counter] ?? 0) + Number(count);
  }
}
