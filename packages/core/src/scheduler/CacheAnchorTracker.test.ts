import { describe, expect, it } from 'vitest';
import { fc, test } from '@fast-check/vitest';
import { CacheAnchorTracker, chooseCacheAnchors, MAX_CACHE_ANCHORS } from './CacheAnchorTracker.js';

describe('cache anchors (issue 14.3)', () => {
  it('#14.3 marks the prefix before the first pending edit', () => {
    expect(
      chooseCacheAnchors({
        sent: [],
        firstEditedSinceSend: undefined,
        firstPending: 12,
        entries: 40,
      }),
    ).toEqual([12]);
  });

  it('#14.3 the request that applies a batch marks again the anchor it reads from', () => {
    // The batch from 12 went; what waits now starts at 30.
    expect(
      chooseCacheAnchors({ sent: [12], firstEditedSinceSend: 12, firstPending: 30, entries: 40 }),
    ).toEqual([12, 30]);
    // An edit below the anchor broke its prefix: it is not marked again.
    expect(
      chooseCacheAnchors({
        sent: [12],
        firstEditedSinceSend: 8,
        firstPending: undefined,
        entries: 40,
      }),
    ).toEqual([]);
  });

  it('#14.3 never marks the start or the whole history (the newest block is marked anyway)', () => {
    expect(
      chooseCacheAnchors({
        sent: [40],
        firstEditedSinceSend: undefined,
        firstPending: 0,
        entries: 40,
      }),
    ).toEqual([]);
  });

  test.prop(
    [
      fc.array(fc.nat(60), { maxLength: 3 }),
      fc.option(fc.nat(60), { nil: undefined }),
      fc.option(fc.nat(60), { nil: undefined }),
      fc.integer({ min: 1, max: 60 }),
    ],
    { numRuns: 200 },
  )(
    '#14.3 property: at most two anchors, ascending, inside the history, none past an edit',
    (sent, edited, pending, entries) => {
      const anchors = chooseCacheAnchors({
        sent,
        firstEditedSinceSend: edited,
        firstPending: pending,
        entries,
      });
      expect(anchors.length).toBeLessThanOrEqual(MAX_CACHE_ANCHORS);
      expect([...anchors].sort((a, b) => a - b)).toEqual(anchors);
      for (const a of anchors) {
        expect(a).toBeGreaterThan(0);
        expect(a).toBeLessThan(entries);
        if (a !== pending && edited !== undefined) expect(a).toBeLessThanOrEqual(edited);
      }
    },
  );

  it('#14.3 the tracker forgets every anchor when compression rewrites the history', () => {
    const tracker = new CacheAnchorTracker();
    tracker.onPending(12);
    expect(tracker.onSend(40)).toEqual([12]);
    tracker.onRewritten();
    expect(tracker.onSend(5)).toEqual([]);
  });
});
