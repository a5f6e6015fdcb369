import { describe, expect, it } from 'vitest';
import { cacheRulesFor } from '../../cache/cacheRules.js';
import { passThroughCost } from './passThroughCost.js';
import { formatRequestLine, formatSummary } from './proxyReport.js';
import { ProxyStats } from './proxyStats.js';
import { proxyRequest } from '../test-utils/proxyRecords.js';

const request = proxyRequest;

const anthropic = cacheRulesFor('anthropic');

describe('ProxyStats', () => {
  it('#22.12 per-conversation stats are bounded; the dropped ones are still in the totals', () => {
    const stats = new ProxyStats({ maxConversations: 3 });
    for (let i = 0; i < 10; i++) stats.record(request({ conversationId: `s${i}` }));
    stats.record(request({ conversationId: 's1' }));
    const json = stats.toJSON();
    expect(Object.keys(json.conversations)).toEqual(['s8', 's9', 's1']);
    expect(json.dropped.conversations).toBe(8);
    expect(json.dropped.totals.requests).toBe(8);
    expect(json.totals.requests).toBe(11);
  });

  it('#22.12 by default 3,000 session ids keep at most 256 entries', () => {
    const stats = new ProxyStats();
    for (let i = 0; i < 3000; i++) stats.record(request({ conversationId: `session:${i}` }));
    expect(Object.keys(stats.toJSON().conversations).length).toBeLessThanOrEqual(256);
    expect(stats.toJSON().totals.requests).toBe(3000);
  });
});

describe('ProxyStats: count_tokens probes', () => {
  const probe = (i: number) =>
    request({ route: 'anthropic count_tokens', conversationId: `probe${i}`, usage: undefined });

  it('#34.4 count_tokens probes are requests in the totals, never conversations, and push none out', () => {
    const stats = new ProxyStats({ maxConversations: 2 });
    stats.record(request({ conversationId: 'a' }));
    stats.record(request({ conversationId: 'b' }));
    for (let i = 0; i < 10; i++) stats.record(probe(i));
    stats.record(request({ route: 'anthropic count_tokens', conversationId: 'a' }));
    const json = stats.toJSON();
    expect(Object.keys(json.conversations)).toEqual(['a', 'b']);
    expect(json.conversations.a?.requests).toBe(1);
    expect(json.dropped.conversations).toBe(0);
    expect(json.totals.requests).toBe(13);
    // A probe bills nothing even if its reply carried a usage object.
    expect(json.totals.inputTokens).toBe(2);
    expect(json.recent.at(-1)?.route).toBe('anthropic count_tokens');
  });
});

describe('passThroughCost', () => {
  const usage = { input: 10, cacheCreation: 1_000, cacheRead: 50_000, output: 100 };

  it('#22.20 a request forwarded byte-identical costs exactly what was billed', () => {
    const { cost } = passThroughCost({
      usage,
      rules: anthropic,
      originalBytes: 400_000,
      sentBytes: 400_000,
      at: 1000,
      previous: { at: 0, promptTokens: 50_000 },
    });
    expect(cost.billed).toBeCloseTo(10 + 1.25 * 1_000 + 0.1 * 50_000);
    expect(cost.passThrough).toBe(cost.billed);
  });

  it('#22.20 sticky pointers on a warm cache: pass-through would have cost more', () => {
    const { cost } = passThroughCost({
      usage,
      rules: anthropic,
      originalBytes: 440_000,
      sentBytes: 400_000,
      at: 1000,
      previous: { at: 0, promptTokens: 55_000 },
    });
    expect(cost.passThrough).toBeGreaterThan(cost.billed);
  });

  it('#22.20 a small edit that rewrote a warm cache: density cost money', () => {
    const rewrite = { input: 10, cacheCreation: 50_000, cacheRead: 1_000, output: 100 };
    const { cost } = passThroughCost({
      usage: rewrite,
      rules: anthropic,
      originalBytes: 204_400,
      sentBytes: 204_000,
      at: 1000,
      previous: { at: 0, promptTokens: 50_000 },
    });
    expect(cost.billed).toBeGreaterThan(cost.passThrough);
  });
});

describe('formatSummary', () => {
  it('#22.20 says per conversation when density cost money, and no longer sums tokens removed', () => {
    const stats = new ProxyStats();
    const costly = { billed: 1_000, passThrough: 800 };
    const cheap = { billed: 500, passThrough: 900 };
    stats.record(request({ conversationId: 'a', removedChars: 40_000, cost: costly }));
    stats.record(request({ conversationId: 'b', removedChars: 4_000, cost: cheap }));
    const summary = formatSummary(stats.toJSON());
    expect(summary).not.toMatch(/tokens removed/);
    expect(summary).toMatch(/a: 1 requests, billed 1000 vs 800 pass-through, density cost money/);
    expect(summary).toMatch(/b: 1 requests, billed 500 vs 900 pass-through, saved 44\.4% \(400\)/);
    expect(summary).toMatch(/density cost money in 1 of 2 conversations/);
  });
});

describe('formatRequestLine', () => {
  it('#22.19 a request forwarded unread says whether the pointers already sent were kept, and why the cache broke', () => {
    const unread = { unsupported: 'request not parsed' };
    expect(formatRequestLine(request(unread), false)).toContain('· unchanged');
    expect(
      formatRequestLine(request({ ...unread, passThrough: { kind: 'kept', pointers: 3 } }), false),
    ).toContain('unchanged, 3 ptr kept');
    const broke = formatRequestLine(
      request({
        ...unread,
        passThrough: { kind: 'dropped', reason: 'history-changed', kept: 0 },
      }),
      false,
    );
    expect(broke).toContain('cache broke: an earlier message differs');
    expect(broke).toContain('(0 ptr kept)');
  });
});
