import { describe, expect, it } from 'vitest';
import type { EphemeralSettings } from '../settings/settingsRegistry.js';
import { EMPTY_DENSITY_METADATA, type CompressionStrategy } from './compression/types.js';
import { big, fakeStrategy, setup } from '../test-utils/compressionHandlerFixtures.js';

describe('CompressionHandler batched density schedule (issue 14.3, compression.density.schedule)', () => {
  /** Removes the entry at index 1 (a deep, small edit in a long history). */
  const removeSecond = () =>
    fakeStrategy({
      optimize: (h) => ({
        removals: h.length > 3 ? [1] : [],
        replacements: new Map(),
        metadata: { ...EMPTY_DENSITY_METADATA, readWrite: 1 },
      }),
    });
  const cacheAware = { 'context-limit': 100_000 } as const;

  async function afterOneSend(
    strategy: CompressionStrategy,
    now: { t: number },
    settings: EphemeralSettings = cacheAware,
    reserve = 0,
  ) {
    const entries = [big(10), big(5), big(3000), big(3000)];
    const { handler, history } = await setup({
      entries: entries.slice(0, 3),
      strategy,
      settings,
      reserve,
      now: () => now.t,
    });
    await handler.ensureCompressionBeforeSend('p'); // first send: nothing cached yet, applied
    history.add(entries[3]!);
    handler.markDirty();
    return { handler, history };
  }

  it('defers a small edit deep in cached history and keeps the flag set', async () => {
    const now = { t: 0 };
    const { handler, history } = await afterOneSend(removeSecond(), now);
    const deferred: unknown[] = [];
    handler.events.on('densityDeferred', (e) => deferred.push(e));
    const lengthBefore = history.length;
    now.t = 1000;
    await handler.ensureCompressionBeforeSend('p');
    expect(history.length).toBe(lengthBefore);
    expect(deferred).toEqual([
      // The 10 tokens before the edit are under the 1,024-token minimum: the whole prompt goes.
      expect.objectContaining({ removedTokens: 5, invalidatedTokens: 3015 }),
    ]);
    expect(handler.isDensityDirty()).toBe(true);
  });

  it('applies the deferred edit once the prompt cache has gone cold', async () => {
    const now = { t: 0 };
    const { handler, history } = await afterOneSend(removeSecond(), now);
    const lengthBefore = history.length;
    now.t = 10 * 60 * 1000;
    await handler.ensureCompressionBeforeSend('p');
    expect(history.length).toBe(lengthBefore - 1);
  });

  it('applies it when the context reaches the threshold, which here avoids compressing at all', async () => {
    const log: string[] = [];
    const strategy = fakeStrategy({
      log,
      optimize: (h) => ({
        removals: h.length > 3 ? [2] : [],
        replacements: new Map(),
        metadata: EMPTY_DENSITY_METADATA,
      }),
    });
    const now = { t: 0 };
    const settings = { 'context-limit': 4000 } as const;
    const { handler, history } = await afterOneSend(strategy, now, settings);
    now.t = 1000;
    // 10 + 5 + 3000 + 3000 = 6015 ≥ 0.85 × 4000: under pressure, so the edit is applied → 3015.
    await handler.ensureCompressionBeforeSend('p');
    expect(log.filter((l) => l.startsWith('compress'))).toEqual([]);
    expect(history.getTotalTokens()).toBe(3015);
  });

  it('REQ-HD-002.8 #12.7 the emergency path applies a deferred edit, and skips compression when that made room', async () => {
    const log: string[] = [];
    // Removes entry 1 (500 tokens, deep under 3,500 cached ones): it does not pay back, so a
    // density step that is not under pressure defers it.
    const strategy = fakeStrategy({
      log,
      optimize: (h) => ({
        removals: h.length > 3 ? [1] : [],
        replacements: new Map(),
        metadata: EMPTY_DENSITY_METADATA,
      }),
    });
    const now = { t: 0 };
    const { handler, history } = await setup({
      entries: [big(10), big(500), big(3000)],
      strategy,
      settings: {
        'compression.density.cacheAware': true,
        'compression-threshold': 1,
        'context-limit': 7000,
      },
      reserve: 300,
      now: () => now.t,
    });
    await handler.ensureCompressionBeforeSend('p');
    history.add(big(3000));
    handler.markDirty();
    now.t = 1000;
    const deferred: unknown[] = [];
    handler.events.on('densityDeferred', (e) => deferred.push(e));
    // 6510 + 300 pending < 7000 (threshold 1.0: no pressure, the edit is deferred), but with the
    // 300-token reserve it is over the hard limit; the deferred edit alone makes room.
    await handler.ensureCompressionBeforeSend('p', 300);
    expect(deferred).toHaveLength(1);
    expect(history.getTotalTokens()).toBe(6010);
    expect(log.filter((l) => l.startsWith('compress'))).toEqual([]);
  });

  it('#14.4 with schedule immediate every non-empty result is applied at once (REQ-HD-002.4)', async () => {
    const now = { t: 0 };
    const { handler, history } = await afterOneSend(removeSecond(), now, {
      'context-limit': 100_000,
      'compression.density.schedule': 'immediate',
    });
    const lengthBefore = history.length;
    now.t = 1000;
    await handler.ensureCompressionBeforeSend('p');
    expect(history.length).toBe(lengthBefore - 1);
  });
});
