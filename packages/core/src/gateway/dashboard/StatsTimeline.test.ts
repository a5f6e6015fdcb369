import { describe, expect, it } from 'vitest';
import { HOUR_MS, MINUTE_MS } from './BucketStore.js';
import { dashboardPage } from './dashboardPage.js';
import { ZERO_COUNTERS } from './statsCounters.js';
import { StatsDeltaError, type StatsDelta } from './statsDelta.js';
import { normalBucketMs, StatsTimeline } from './StatsTimeline.js';
import { manualClock, requestRecord } from './test-utils/requestRecords.js';

const DAY = 24 * HOUR_MS;
/** A Monday, 09:00 UTC. */
const T0 = Date.UTC(2026, 10, 30, 9, 0, 0);

describe('StatsTimeline', () => {
  it('#36.5 a request adds its costs, compactions avoided, waiting avoided and context in its minute', () => {
    const timeline = new StatsTimeline({ now: () => T0 + HOUR_MS });
    timeline.record(
      'ana',
      requestRecord({
        at: T0 + 5_000,
        billed: 10.5,
        passThrough: 40.25,
        upstreamTokens: 900,
        clientTokens: 3_000,
      }),
    );
    timeline.record(
      'ana',
      requestRecord({ at: T0 + 50_000, avoided: 'kept-under', billed: 1, passThrough: 2 }),
    );
    // Answered by Dense in 2 s: the client waited 2 s instead of its own 75 s compaction.
    timeline.record(
      'ana',
      requestRecord({ at: T0 + 61_000, avoided: 'answered', durationMs: 2_000, passThrough: 30 }),
    );
    expect(timeline.series('ana')).toEqual([
      {
        start: T0,
        counters: {
          ...ZERO_COUNTERS,
          requests: 2,
          billedMilli: 11_500,
          passThroughMilli: 42_250,
          compactionsKeptUnder: 1,
          waitingAvoidedMs: 75_000,
          upstreamTokens: 900,
          clientTokens: 3_000,
        },
      },
      {
        start: T0 + MINUTE_MS,
        counters: {
          ...ZERO_COUNTERS,
          requests: 1,
          passThroughMilli: 30_000,
          compactionsAnswered: 1,
          waitingAvoidedMs: 73_000,
        },
      },
    ]);
    const stats = timeline.teamStats('ana');
    expect(stats.totals).toEqual({
      requests: 3,
      billedCost: 11.5,
      passThroughCost: 72.25,
      savedCost: 60.75,
      savedPercent: (60.75 / 72.25) * 100,
      compactionsAnswered: 1,
      compactionsKeptUnder: 1,
      compactionsAvoided: 2,
      waitingAvoidedSeconds: 148,
      contextUpstreamTokens: 900,
      contextClientTokens: 3_000,
    });
    expect(stats.compactionWaitSeconds).toBe(75);
  });

  it('#36.5 an answer slower than the client compaction avoids no waiting; the wait is an option', () => {
    const timeline = new StatsTimeline({ now: () => T0, compactionWaitMs: 10_000 });
    timeline.record('ana', requestRecord({ at: T0, avoided: 'answered', durationMs: 12_000 }));
    timeline.record('ana', requestRecord({ at: T0, avoided: 'kept-under' }));
    expect(timeline.totals('ana').waitingAvoidedMs).toBe(10_000);
  });

  it('#36.5 coarser buckets are sums of the minute buckets, aligned to their length', () => {
    const timeline = new StatsTimeline({ now: () => T0 + DAY });
    const minutes = [0, 1, 4, 5, 14, 59, 60, 61, 179];
    for (const minute of minutes) {
      timeline.record(
        'ana',
        requestRecord({ at: T0 + minute * MINUTE_MS + 30_000, billed: minute + 1 }),
      );
    }
    const requests = (bucketMs: number) =>
      timeline.series('ana', bucketMs).map((p) => [p.start - T0, p.counters.requests]);
    expect(requests(MINUTE_MS)).toHaveLength(minutes.length);
    expect(requests(5 * MINUTE_MS)).toEqual([
      [0, 3],
      [5 * MINUTE_MS, 1],
      [10 * MINUTE_MS, 1],
      [55 * MINUTE_MS, 1],
      [60 * MINUTE_MS, 2],
      [175 * MINUTE_MS, 1],
    ]);
    expect(requests(HOUR_MS)).toEqual([
      [0, 6],
      [HOUR_MS, 2],
      [2 * HOUR_MS, 1],
    ]);
    const billed = timeline
      .series('ana', HOUR_MS)
      .reduce((sum, p) => sum + p.counters.billedMilli, 0);
    expect(billed).toBe(minutes.reduce((sum, m) => sum + (m + 1) * 1000, 0));
    // Bucket lengths are whole minutes, at least one.
    expect([normalBucketMs(0), normalBucketMs(90_000), normalBucketMs(Number.NaN)]).toEqual([
      MINUTE_MS,
      2 * MINUTE_MS,
      MINUTE_MS,
    ]);
    expect(timeline.series('ana', 1, { from: T0 + HOUR_MS, to: T0 + 2 * HOUR_MS })).toHaveLength(2);
  });

  it('#36.5 drainDelta hands on what was recorded since the last drain, once; added deltas are not handed on again', () => {
    const clock = manualClock(T0);
    const replica = new StatsTimeline({ now: clock.now });
    const other = new StatsTimeline({ now: clock.now });
    replica.record('ana', requestRecord({ at: T0, billed: 3, passThrough: 9 }));
    replica.record('bo', requestRecord({ at: T0 + MINUTE_MS, billed: 1 }));
    const first = replica.drainDelta();
    expect(first).toEqual({
      version: 1,
      users: {
        ana: {
          minutes: { [String(T0)]: { requests: 1, billedMilli: 3_000, passThroughMilli: 9_000 } },
        },
        bo: { minutes: { [String(T0 + MINUTE_MS)]: { requests: 1, billedMilli: 1_000 } } },
      },
    });
    expect(replica.drainDelta()).toEqual({ version: 1, users: {} });
    other.addDelta(JSON.parse(JSON.stringify(first)) as StatsDelta);
    other.record('ana', requestRecord({ at: T0 + 2 * MINUTE_MS, billed: 5 }));
    expect(other.drainDelta().users).toEqual({
      ana: { minutes: { [String(T0 + 2 * MINUTE_MS)]: { requests: 1, billedMilli: 5_000 } } },
    });
    expect(other.totals('ana')).toEqual({
      ...ZERO_COUNTERS,
      requests: 2,
      billedMilli: 8_000,
      passThroughMilli: 9_000,
    });
    // The replica keeps its own figures after draining.
    expect(replica.totals().requests).toBe(2);
    const copy = new StatsTimeline({ now: clock.now });
    copy.addDelta(other.snapshot());
    expect(copy.snapshot()).toEqual(other.snapshot());
  });

  it('#36.5 minute buckets past their retention merge into hour buckets, hour buckets past theirs into the total', () => {
    const clock = manualClock(T0);
    const timeline = new StatsTimeline({ now: clock.now });
    for (const minute of [0, 10, 59, 61]) {
      timeline.record('ana', requestRecord({ at: T0 + minute * MINUTE_MS, billed: 1 }));
    }
    const before = timeline.totals('ana');
    clock.set(T0 + 8 * DAY);
    expect(timeline.series('ana').map((p) => [p.start - T0, p.counters.requests])).toEqual([
      [0, 3],
      [HOUR_MS, 1],
    ]);
    expect(timeline.snapshot().users.ana).toEqual({
      hours: {
        [String(T0)]: { requests: 3, billedMilli: 3_000 },
        [String(T0 + HOUR_MS)]: { requests: 1, billedMilli: 1_000 },
      },
    });
    // A late record for an old minute goes straight to its hour.
    timeline.record('ana', requestRecord({ at: T0 + 30 * MINUTE_MS, billed: 1 }));
    expect(timeline.series('ana')[0]?.counters.requests).toBe(4);
    clock.set(T0 + 91 * DAY);
    expect(timeline.series('ana')).toEqual([]);
    expect(timeline.snapshot().users.ana).toEqual({ older: { requests: 5, billedMilli: 5_000 } });
    expect(timeline.totals('ana')).toEqual({ ...before, requests: 5, billedMilli: 5_000 });
    // What never drained is bounded the same way.
    expect(timeline.drainDelta().users.ana).toEqual({ older: { requests: 5, billedMilli: 5_000 } });
  });

  it('#36.5 a store holds at most one bucket per minute of the minute retention and one per hour of the hour retention', () => {
    const clock = manualClock(T0);
    const timeline = new StatsTimeline({
      now: clock.now,
      minuteRetentionMs: 2 * HOUR_MS,
      hourRetentionMs: 5 * HOUR_MS,
    });
    for (let minute = 0; minute < 24 * 60; minute++) {
      clock.set(T0 + minute * MINUTE_MS);
      timeline.record('ana', requestRecord({ at: clock.now(), billed: 1 }));
      if (minute % 10 !== 9) continue;
      const user = timeline.snapshot().users.ana;
      expect(Object.keys(user?.minutes ?? {}).length).toBeLessThanOrEqual(3 * 60);
      expect(Object.keys(user?.hours ?? {}).length).toBeLessThanOrEqual(5);
    }
    expect(timeline.totals('ana').requests).toBe(24 * 60);
  });

  it('#36.5 a delta that is not one throws StatsDeltaError and adds nothing', () => {
    const timeline = new StatsTimeline({ now: () => T0 });
    const bad: unknown[] = [
      null,
      { version: 2, users: {} },
      { version: 1, users: { ana: { minutes: { [String(T0)]: { requests: 1.5 } } } } },
      { version: 1, users: { ana: { minutes: { [String(T0)]: { requests: 1, dollars: 3 } } } } },
      { version: 1, users: { ana: { minutes: { [String(T0 + 1)]: { requests: 1 } } } } },
      { version: 1, users: { ana: { hours: { [String(T0 + MINUTE_MS)]: { requests: 1 } } } } },
      {
        version: 1,
        users: { ana: { minutes: { [String(T0)]: { requests: 1 } } }, bo: { older: 'x' } },
      },
    ];
    for (const delta of bad) {
      expect(() => timeline.addDelta(delta as StatsDelta)).toThrow(StatsDeltaError);
    }
    expect(timeline.users()).toEqual([]);
    try {
      timeline.addDelta(bad[3] as StatsDelta);
    } catch (error) {
      expect((error as StatsDeltaError).code).toBe('stats-delta-invalid');
    }
  });

  it('#36.5 teamStats picks the finest bucket that gives at most 240 points, never finer than what is stored', () => {
    const clock = manualClock(T0);
    const timeline = new StatsTimeline({ now: clock.now });
    timeline.record('ana', requestRecord({ at: T0, billed: 1 }));
    timeline.record('ana', requestRecord({ at: T0 + 3 * HOUR_MS, billed: 1 }));
    clock.set(T0 + 3 * HOUR_MS);
    expect(timeline.teamStats().series.bucketMs).toBe(MINUTE_MS);
    timeline.record('ana', requestRecord({ at: T0 + 2 * DAY, billed: 1 }));
    clock.set(T0 + 2 * DAY);
    expect(timeline.teamStats().series.bucketMs).toBe(15 * MINUTE_MS);
    clock.set(T0 + 8 * DAY);
    expect(timeline.teamStats(undefined, { windowMs: 30 * DAY }).series.bucketMs).toBe(HOUR_MS);
    expect(
      timeline
        .teamStats(undefined, { bucketMs: DAY, windowMs: 30 * DAY })
        .series.points.map((p) => p.requests),
    ).toEqual([2, 1]);
    // The default window is a week: the first day has left it, the totals keep it.
    const week = timeline.teamStats();
    expect(week.series.points.map((p) => p.requests)).toEqual([1]);
    expect(week.totals.requests).toBe(3);
  });
});

describe('StatsTimeline isolation', () => {
  const names = ['ana', 'bo<b>'];
  function team(): StatsTimeline {
    const timeline = new StatsTimeline({ now: () => T0 + DAY });
    timeline.record(
      'ana',
      requestRecord({ at: T0, billed: 12.125, passThrough: 50, upstreamTokens: 4_321 }),
    );
    timeline.record(
      'bo<b>',
      requestRecord({
        at: T0,
        billed: 777.777,
        passThrough: 999.125,
        avoided: 'kept-under',
        upstreamTokens: 98_765,
      }),
    );
    timeline.record('bo<b>', requestRecord({ at: T0 + 7 * MINUTE_MS, billed: 1, passThrough: 2 }));
    return timeline;
  }

  it("#36.5 user A's teamStats has no trace of user B: names, figures, buckets or team sums", () => {
    const timeline = team();
    const stats = timeline.teamStats('ana');
    expect(stats.scope).toEqual({ kind: 'user', user: 'ana' });
    expect(Object.keys(stats.users)).toEqual(['ana']);
    expect(stats.totals).toEqual(stats.users.ana);
    expect(stats.totals.requests).toBe(1);
    expect(stats.series.points.map((p) => p.requests)).toEqual([1]);
    const text = JSON.stringify(stats);
    for (const trace of ['bo', '777.777', '999.125', '98765', '778.902', 'kept']) {
      expect(text).not.toContain(trace);
    }
    expect(stats.totals.compactionsAvoided).toBe(0);
    const page = dashboardPage(stats);
    for (const trace of ['bo&lt;b&gt;', 'bo<b>', '777', '98.8k']) expect(page).not.toContain(trace);
  });

  it('#36.5 a user with no requests sees zeros and nobody else; the team sees everyone', () => {
    const timeline = team();
    const nobody = timeline.teamStats('cy');
    expect(Object.keys(nobody.users)).toEqual(['cy']);
    expect(nobody.totals.requests).toBe(0);
    expect(nobody.series.points).toEqual([]);
    expect(timeline.series('cy')).toEqual([]);
    const all = timeline.teamStats();
    expect(Object.keys(all.users).sort()).toEqual(names);
    expect(all.totals.requests).toBe(3);
    expect(all.totals.billedCost).toBeCloseTo(790.902, 9);
  });

  it('#36.5 a user named like an object property is an ordinary user', () => {
    const timeline = new StatsTimeline({ now: () => T0 });
    for (const user of ['__proto__', 'constructor', 'toString']) {
      timeline.record(user, requestRecord({ at: T0, billed: 2 }));
    }
    const copy = new StatsTimeline({ now: () => T0 });
    copy.addDelta(JSON.parse(JSON.stringify(timeline.drainDelta())) as StatsDelta);
    expect(copy.users().sort()).toEqual(['__proto__', 'constructor', 'toString']);
    expect(copy.teamStats('__proto__').totals.billedCost).toBe(2);
    expect(copy.teamStats().totals.requests).toBe(3);
    expect(Object.getPrototypeOf(copy.teamStats().users)).toBe(Object.prototype);
  });
});
