import { fc, test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import { HOUR_MS, MINUTE_MS } from './BucketStore.js';
import { addCounters, ZERO_COUNTERS } from './statsCounters.js';
import { parseStatsDelta, type StatsDelta } from './statsDelta.js';
import { StatsTimeline, type StatsTimelineOptions } from './StatsTimeline.js';
import { manualClock, requestRecord } from './test-utils/requestRecords.js';

const DAY = 24 * HOUR_MS;
const T0 = Date.UTC(2026, 10, 30, 9, 0, 0);
/** Short retentions so that the clock's steps move buckets to hours and past them. */
const RETENTION = { minuteRetentionMs: 2 * DAY, hourRetentionMs: 10 * DAY };

/** One request, when the clock reads it, and what the replica does after it. */
const STEP = fc.record({
  user: fc.constantFrom('ana', 'bo', '__proto__', '<b>&'),
  /** How far the clock moves before this request (ms). */
  clockStep: fc.nat({ max: 3 * DAY }),
  /** How long before the clock the request started (ms). */
  lag: fc.nat({ max: 2 * DAY }),
  billed: fc.option(fc.double({ min: 0, max: 1e6, noNaN: true })),
  passThrough: fc.option(fc.double({ min: 0, max: 1e6, noNaN: true })),
  avoided: fc.constantFrom(undefined, 'answered' as const, 'kept-under' as const),
  durationMs: fc.nat({ max: 200_000 }),
  upstreamTokens: fc.option(fc.nat({ max: 2_000_000 })),
  clientTokens: fc.nat({ max: 2_000_000 }),
  /** Drain a delta after this request. */
  drain: fc.boolean(),
  /** Where the drained delta goes in the order the deltas are added. */
  order: fc.nat(),
});

type Step = typeof STEP extends fc.Arbitrary<infer T> ? T : never;

function recordOf(step: Step, at: number) {
  return requestRecord({
    at,
    ...(step.billed === null ? {} : { billed: step.billed }),
    ...(step.passThrough === null ? {} : { passThrough: step.passThrough }),
    ...(step.avoided === undefined ? {} : { avoided: step.avoided }),
    durationMs: step.durationMs,
    ...(step.upstreamTokens === null
      ? {}
      : { upstreamTokens: step.upstreamTokens, clientTokens: step.clientTokens }),
  });
}

describe('StatsTimeline deltas', () => {
  test.prop([fc.array(STEP, { maxLength: 40 }), fc.nat({ max: 30 * DAY })], { numRuns: 150 })(
    '#36.5 adding drained deltas in any split and any order equals recording all at once',
    (steps, tail) => {
      const clock = manualClock(T0);
      const options: StatsTimelineOptions = { now: clock.now, ...RETENTION };
      const replica = new StatsTimeline(options);
      const deltas: { order: number; delta: StatsDelta }[] = [];
      const recorded: { user: string; at: number; step: Step }[] = [];
      let now = T0;
      for (const step of steps) {
        now += step.clockStep;
        clock.set(now);
        const at = now - step.lag;
        replica.record(step.user, recordOf(step, at));
        recorded.push({ user: step.user, at, step });
        if (step.drain) deltas.push({ order: step.order, delta: replica.drainDelta() });
      }
      deltas.push({ order: 0, delta: replica.drainDelta() });
      clock.set(now + tail);

      const merged = new StatsTimeline(options);
      for (const { delta } of [...deltas].sort((a, b) => a.order - b.order)) {
        merged.addDelta(parseStatsDelta(JSON.parse(JSON.stringify(delta))));
      }
      const atOnce = new StatsTimeline(options);
      for (const { user, at, step } of recorded) atOnce.record(user, recordOf(step, at));

      expect(merged.snapshot()).toEqual(atOnce.snapshot());
      expect(replica.snapshot()).toEqual(atOnce.snapshot());
      for (const user of [undefined, 'ana', '__proto__']) {
        expect(merged.teamStats(user)).toEqual(atOnce.teamStats(user));
      }
    },
  );

  test.prop([fc.array(STEP, { maxLength: 40 }), fc.integer({ min: 1, max: 2 * 24 * 60 })], {
    numRuns: 100,
  })(
    '#36.5 every bucket length sums to the totals, less what is past the hour retention',
    (steps, bucketMinutes) => {
      const clock = manualClock(T0);
      const timeline = new StatsTimeline({ now: clock.now, ...RETENTION });
      let now = T0;
      for (const step of steps) {
        now += step.clockStep;
        clock.set(now);
        timeline.record(step.user, recordOf(step, now - step.lag));
      }
      for (const user of [undefined, 'bo']) {
        const series = timeline.series(user, bucketMinutes * MINUTE_MS);
        const inBuckets = series.reduce(
          (sum, point) => addCounters(sum, point.counters),
          ZERO_COUNTERS,
        );
        const older = Object.entries(timeline.snapshot().users)
          .filter(([name]) => user === undefined || name === user)
          .map(([, delta]) => delta.older ?? {});
        const olderRequests = older.reduce((sum, counters) => sum + (counters.requests ?? 0), 0);
        expect(inBuckets.requests + olderRequests).toBe(timeline.totals(user).requests);
        expect(series.every((point) => point.start % (bucketMinutes * MINUTE_MS) === 0)).toBe(true);
        expect(series.map((point) => point.start)).toEqual(
          [...series.map((point) => point.start)].sort((a, b) => a - b),
        );
      }
    },
  );
});
