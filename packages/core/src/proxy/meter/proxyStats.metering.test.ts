import { describe, expect, it } from 'vitest';
import { formatRequestLine, formatSummary } from './proxyReport.js';
import { ProxyStats, type RequestPricing } from './proxyStats.js';
import { removedTokensOf } from './proxyTotals.js';
import { type ProxyRequestRecord } from './proxyRecord.js';
import { clientCompactionThreshold } from '../budget/workingBudget.js';
import { bodyImageLoad } from '../images/requestImages.js';
import { proxyRequest } from '../test-utils/proxyRecords.js';
import { anthropicImageBlock, pngBytes } from '../test-utils/syntheticImages.js';
import type { Usage } from './usageMeter.js';

function request(usage: Usage, extra: Partial<ProxyRequestRecord> = {}): ProxyRequestRecord {
  return proxyRequest({ usage, ...extra });
}

const prompt = (tokens: number): Usage => ({
  input: 0,
  cacheCreation: 0,
  cacheRead: tokens,
  output: 1_000,
});

/** The client sent `ratio` × the bytes forwarded; Claude Code's 167,000 threshold. */
const pricing = (ratio: number): RequestPricing => ({
  provider: 'anthropic',
  originalBytes: 400_000 * ratio,
  sentBytes: 400_000,
  clientThreshold: 167_000,
});

describe('ProxyStats metering: context and compactions avoided', () => {
  it('#24.6 context upstream (reported) vs what the client holds (scaled by bytes), per conversation and summed in totals', () => {
    const stats = new ProxyStats();
    stats.record(request(prompt(50_000), { conversationId: 'a' }), pricing(2));
    stats.record(request(prompt(60_000), { conversationId: 'a' }), pricing(2));
    stats.record(request(prompt(10_000), { conversationId: 'b' }), pricing(1));
    const json = stats.toJSON();
    expect(json.conversations.a?.contextUpstreamTokens).toBe(60_000);
    expect(json.conversations.a?.contextClientTokens).toBe(120_000);
    expect(json.conversations.b?.contextClientTokens).toBe(10_000);
    // Totals: the latest of each conversation, summed (not every request's prompt).
    expect(json.totals.contextUpstreamTokens).toBe(70_000);
    expect(json.totals.contextClientTokens).toBe(130_000);
    expect(json.recent.at(-2)?.context).toEqual({
      upstreamTokens: 60_000,
      clientTokens: 120_000,
    });
  });

  it('#24.6 a dropped conversation keeps its latest context in the dropped and overall sums', () => {
    const stats = new ProxyStats({ maxConversations: 1 });
    stats.record(request(prompt(50_000), { conversationId: 'a' }), pricing(2));
    stats.record(request(prompt(10_000), { conversationId: 'b' }), pricing(1));
    const json = stats.toJSON();
    expect(json.dropped.totals.contextClientTokens).toBe(100_000);
    expect(json.totals.contextClientTokens).toBe(110_000);
  });

  it('#24.6 kept under: counted when the client holds past its threshold and is told less, again only after another threshold of growth', () => {
    const stats = new ProxyStats();
    const sizes = [60_000, 80_000, 90_000, 120_000, 150_000, 160_000];
    const avoided = sizes.map(
      (upstream) =>
        stats.record(request(prompt(upstream)), pricing(upstream < 100_000 ? 2 : 2.5))
          .compactionAvoided,
    );
    // Held: 120k, 160k, 180k (first count), 300k, 375k (held − 181k ≥ 167k: second), 400k.
    expect(avoided).toEqual([
      undefined,
      undefined,
      'kept-under',
      undefined,
      'kept-under',
      undefined,
    ]);
    const totals = stats.toJSON().conversations.c;
    expect(totals?.compactionsKeptUnder).toBe(2);
    expect(totals?.compactionsAvoided).toBe(2);
  });

  it('#24.6 not kept under when the reported context itself passes the threshold, or the threshold is unknown', () => {
    const stats = new ProxyStats();
    expect(stats.record(request(prompt(170_000)), pricing(1.5)).compactionAvoided).toBeUndefined();
    const { clientThreshold: _, ...unknown } = pricing(3);
    const other = request(prompt(100_000), { conversationId: 'o' });
    expect(stats.record(other, unknown).compactionAvoided).toBeUndefined();
    expect(stats.toJSON().totals.compactionsAvoided).toBe(0);
  });

  it('#24.6 a client compaction answered by Dense counts as avoided, per conversation and in total', () => {
    const stats = new ProxyStats();
    const answered = request(prompt(0), {
      usage: undefined,
      compaction: { kind: 'answered', cut: 12 },
    });
    expect(stats.record(answered).compactionAvoided).toBe('answered');
    const json = stats.toJSON();
    expect(json.conversations.c?.compactionsAnswered).toBe(1);
    expect(json.totals.compactionsAvoided).toBe(1);
  });

  it('#24.6 the request line and the summary say context upstream vs client and compactions avoided', () => {
    const stats = new ProxyStats();
    const kept = stats.record(request(prompt(90_000)), pricing(2));
    stats.record(
      request(prompt(0), { usage: undefined, compaction: { kind: 'answered', cut: 3 } }),
    );
    expect(formatRequestLine(kept, false)).toContain(
      'context 90k upstream vs 180k client · client kept under its compaction threshold',
    );
    const summary = formatSummary(stats.toJSON());
    expect(summary).toMatch(/context upstream vs client \(latest, summed\)\s+90k vs 180k/);
    expect(summary).toMatch(/client compactions avoided\s+2 \(1 answered, 1 kept under\)/);
    expect(summary).toMatch(
      /c: 2 requests, .*context 90k upstream vs 180k client; compactions avoided 2/,
    );
  });
});

describe('ProxyStats metering: images', () => {
  it('#34.4 a pasted 600 KB screenshot counts by its image tokens in the client context, the pass-through cost and compactions avoided, never as base64 text', () => {
    // A 22k-token conversation (88,000 characters of text) with a 1280×800 screenshot, forwarded
    // as a 3,000-token summary without the image.
    const text = 'x'.repeat(88_000);
    const original = Buffer.from(
      JSON.stringify({
        messages: [
          { role: 'user', content: [anthropicImageBlock(pngBytes(1280, 800, 600 * 1024))] },
          { role: 'user', content: text },
        ],
      }),
    );
    expect(original.length).toBeGreaterThan(800_000);
    const sent = Buffer.from(
      JSON.stringify({ messages: [{ role: 'user', content: 's'.repeat(12_000) }] }),
    );
    const stats = new ProxyStats();
    const removedChars = original.length - sent.length;
    const stored = stats.record(request(prompt(3_000), { conversationId: 'a', removedChars }), {
      provider: 'anthropic',
      originalBytes: original.length,
      sentBytes: sent.length,
      originalImages: bodyImageLoad(original),
      sentImages: bodyImageLoad(sent),
      clientThreshold: 167_000,
    });
    const client = stored.context?.clientTokens ?? 0;
    // ~22,000 of text plus 1,366 for the image (1280 × 800 / 750); bytes alone said ~225,000.
    expect(client).toBeGreaterThan(22_000);
    expect(client).toBeLessThan(24_000);
    expect(stored.compactionAvoided).toBeUndefined();
    // Priced as ~23,400 prompt tokens (a cache write at most 1.25×), not ~225,000.
    expect(stored.cost?.passThrough ?? 0).toBeLessThanOrEqual(client * 1.25);
    // Kept out: the text less the summary, plus the image's 1,366 (not ~200,000 of base64).
    const removed = stats.toJSON().totals.removedTokens;
    expect(removed).toBe(removedTokensOf(stored));
    expect(removed).toBeGreaterThan(20_000);
    expect(removed).toBeLessThan(24_000);
  });
});

describe("ProxyStats metering: the client's own window", () => {
  it("#34.4 with Claude Code's default model (1M without the beta), a client holding 174k is no compaction avoided; with a 200k model it is", () => {
    const count = (model: string) => {
      const stats = new ProxyStats();
      const threshold = clientCompactionThreshold({
        model,
        longContext: false,
        client: 'claude-code',
      });
      const stored = stats.record(request(prompt(30_000), { conversationId: 'a' }), {
        provider: 'anthropic',
        originalBytes: 174_000 * 4,
        sentBytes: 30_000 * 4,
        clientThreshold: threshold,
      });
      return stored.compactionAvoided;
    };
    expect(count('claude-opus-5-5')).toBeUndefined();
    expect(count('claude-sonnet-4-6')).toBe('kept-under');
  });
});
