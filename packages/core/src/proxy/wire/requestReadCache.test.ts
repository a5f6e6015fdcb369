import { describe, expect, it, vi } from 'vitest';
import { readAnthropicRequest } from './anthropicHistory.js';
import { ConversationStore } from '../decide/conversationStore.js';
import {
  densifyRequest,
  type DensifyOptions,
  type DensifyResult,
} from '../densify/densifyRequest.js';
import { parseJsonSpans } from './jsonSpans.js';
import { RequestReadCache } from './requestReadCache.js';
import { SegmentedText } from './segmentedText.js';
import { bigSessionTurns } from '../test-utils/bigSession.js';
import { anthropicBody, claudeSession } from '../test-utils/wireRequests.js';

const read = (cache: RequestReadCache, text: string, sessionId = 's') =>
  cache.read({ api: 'anthropic', text, sessionId }).outcome;
const full = (text: string) => readAnthropicRequest(text, parseJsonSpans(text));

// Whole Claude Code-shaped conversations densified twice: up to 2.5 s a test under load.
describe('RequestReadCache', { timeout: 30_000 }, () => {
  it('#24.4 a request that adds messages to the previous one is read from where they start', () => {
    const cache = new RequestReadCache();
    const turns = bigSessionTurns(5_000, 3);
    for (const [i, text] of turns.entries()) {
      expect(read(cache, text)).toEqual(full(text));
      expect(cache.lastPath).toBe(i === 0 ? 'full' : 'resumed');
    }
  });

  it('#24.4 a resumed read keeps only its new bytes, not the request body: the body may be reused after the read and the next request still resumes', () => {
    const cache = new RequestReadCache();
    const [first, second, third] = bigSessionTurns(5_000, 3).map((text) => Buffer.from(text));
    cache.read({ api: 'anthropic', body: first as Buffer, sessionId: 's' });
    const before = cache.size.bytes;
    const resumed = cache.read({ api: 'anthropic', body: second as Buffer, sessionId: 's' });
    expect(cache.lastPath).toBe('resumed');
    expect(resumed.outcome).toEqual(full((second as Buffer).toString()));
    // The first body, and a copy of what the second adds to it (merges aside).
    expect(cache.size.bytes).toBeLessThan(before + (second as Buffer).length / 2);
    (second as Buffer).fill(0x20);
    const text = (third as Buffer).toString();
    expect(cache.read({ api: 'anthropic', body: third as Buffer, sessionId: 's' }).outcome).toEqual(
      full(text),
    );
    expect(cache.lastPath).toBe('resumed');
  });

  it('#36 a resumed non-ASCII read decodes its new bytes in pieces V8 keeps in its ordinary heap, and reads as a full read does', () => {
    const cache = new RequestReadCache();
    // Each turn adds ~100K characters of two-byte text: one string of them would be a large object.
    const output = (n: number) => `{"step":${n}} → ✓ ${'é'.repeat(40)}\n`.repeat(2_000);
    const messages = claudeSession(2);
    const turns = [0, 1, 2].map((n) => {
      messages.push(
        { role: 'assistant', content: [{ type: 'text', text: `step ${n}` }] },
        { role: 'user', content: [{ type: 'text', text: output(n) }] },
      );
      return Buffer.from(anthropicBody(messages));
    });
    for (const [i, body] of turns.entries()) {
      const result = cache.read({ api: 'anthropic', body, sessionId: 's' });
      const text = body.toString('utf8');
      expect(result.outcome).toEqual(full(text));
      expect(result.segments.toString()).toBe(text);
      if (i === 0) continue;
      expect(cache.lastPath).toBe('resumed');
      expect(result.segments.pieceCount).toBeGreaterThan(3);
    }
  });

  it('#24.4 a resumed read makes span objects only for the messages after its resume point', () => {
    const cache = new RequestReadCache();
    const [first, second] = bigSessionTurns(5_000, 2);
    const before = read(cache, first as string);
    const after = read(cache, second as string);
    expect(cache.lastPath).toBe('resumed');
    expect(after).toEqual(full(second as string));
    if (before.kind !== 'history' || after.kind !== 'history') throw new Error('not read');
    const spans = after.wire.messageSpans;
    const kept = spans.filter((span, index) => span === before.wire.messageSpans[index]).length;
    expect(kept).toBeGreaterThan(spans.length - 5);
    expect(kept).toBeLessThan(spans.length);
  });

  it('#24.4 a request that changed a message before the previous last three is read in full', () => {
    const cache = new RequestReadCache();
    read(cache, anthropicBody(claudeSession(3)));
    const edited = anthropicBody(claudeSession(3, { readContent: 'other text' }));
    expect(read(cache, edited)).toEqual(full(edited));
    expect(cache.lastPath).toBe('full');
  });

  it('#24.4 two conversations of one session each resume from their own previous request', () => {
    const cache = new RequestReadCache();
    const main = (steps: number) => anthropicBody(claudeSession(steps));
    const side = (steps: number) => anthropicBody(claudeSession(steps), { system: 'titles' });
    read(cache, main(1));
    read(cache, side(1));
    read(cache, main(2));
    expect(cache.lastPath).toBe('resumed');
    expect(read(cache, side(2))).toEqual(full(side(2)));
    expect(cache.lastPath).toBe('resumed');
  });

  it('#24.4 a request that is not JSON throws as the full parse does, and the cache survives', () => {
    const cache = new RequestReadCache();
    read(cache, anthropicBody(claudeSession(1)));
    const broken = `${anthropicBody(claudeSession(2))},`;
    expect(() => read(cache, broken)).toThrow(/invalid JSON at offset \d+: trailing characters/);
    expect(() => parseJsonSpans(broken)).toThrow(/trailing characters/);
    read(cache, anthropicBody(claudeSession(3)));
    expect(cache.lastPath).toBe('resumed');
  });

  it('#24.4 the cache keeps at most maxEntries reads and maxChars characters', () => {
    const byCount = new RequestReadCache({ maxEntries: 2 });
    for (const id of ['a', 'b', 'c']) read(byCount, anthropicBody(claudeSession(1)), id);
    expect(byCount.size.entries).toBe(2);
    const text = anthropicBody(claudeSession(3));
    const byChars = new RequestReadCache({ maxChars: text.length * 2 });
    for (const id of ['a', 'b', 'c']) read(byChars, text, id);
    const held = text.length * 2;
    expect(byChars.size).toEqual({ entries: 2, chars: held, bytes: held, asciiChars: held });
  });

  it('#24.4 densifyRequest sends the same bytes with the cache as without it', () => {
    const cached = new ConversationStore();
    const uncached = new ConversationStore({ reads: { maxEntries: 0 } });
    const turns = bigSessionTurns(20_000, 6);
    for (const [i, text] of [...turns, turns[2] as string, ...turns.slice(3)].entries()) {
      const options = { api: 'anthropic', body: Buffer.from(text), sessionId: 's', now: i * 1000 };
      const [a, b] = [cached, uncached].map((store) =>
        densifyRequest({ ...options, api: 'anthropic', store, pressureTokens: 150_000 }),
      );
      expect(a?.body.equals(b?.body as Buffer)).toBe(true);
      expect({ ...a, body: undefined }).toEqual({ ...b, body: undefined });
    }
    expect(uncached.reads.size.entries).toBe(0);
  });

  it('#24.4 a resumed non-ASCII request is read, densified and spliced without joining its whole text, and sends the bytes a full read sends', () => {
    const [older, newer] = bigSessionTurns(20_000, 2, { nonAscii: true }) as [string, string];
    // Appends, then a rewind to the shorter request, then appends again.
    const results = densifyWithoutJoin([older, newer, older, newer], (cached, a, b) => {
      expect(cached.reads.lastPath).toBe('resumed');
      expect(a.pointers).toBeGreaterThan(0);
      expect({ ...a, body: undefined }).toEqual({ ...b, body: undefined });
    });
    expect(results).toHaveLength(4);
  });

  it('#24.4 with the working budget on, a resumed non-ASCII request is compacted and sent without joining its whole text, and sends the bytes a full read sends', () => {
    const texts = bigSessionTurns(20_000, 4, { nonAscii: true });
    const workingBudget = { tokens: 8_000, longContext: false };
    const results = densifyWithoutJoin(texts, () => undefined, { workingBudget });
    expect(results.map((result) => result.compaction?.kind)).toContain('kept');
  });

  it('#36 a compacted request goes out as the pieces of its text, not joined into one string', () => {
    const workingBudget = { tokens: 8_000, longContext: false };
    const kept: number[] = [];
    densifyWithoutJoin(
      bigSessionTurns(20_000, 4, { nonAscii: true }),
      (_, a) => {
        if (a.compaction?.kind === 'kept') kept.push(a.chunks?.length ?? 0);
      },
      { workingBudget },
    );
    expect(kept.length).toBeGreaterThan(0);
    // Before the summary, the summary, after it: and the pieces of the text before and after.
    for (const chunks of kept) expect(chunks).toBeGreaterThan(3);
  });

  it('#24.4 a resumed non-ASCII request whose new messages make reads stale is priced by the cache model without joining its text', () => {
    const results = densifyWithoutJoin(
      bigSessionTurns(20_000, 7, { nonAscii: true }),
      () => undefined,
    );
    // Some request had new candidates (the schedule ran on the cache model), not only 'none'.
    expect(
      results.filter((result) => (result.schedule ?? 'none') !== 'none').length,
    ).toBeGreaterThan(0);
  });
});

/**
 * Densifies `texts` in turn through a store with the read cache and one without: every resumed
 * request (all after the first) is densified without joining its text and sends the same bytes
 * as a full read; `check` sees each resumed pair.
 */
function densifyWithoutJoin(
  texts: readonly string[],
  check: (cached: ConversationStore, a: DensifyResult, b: DensifyResult) => void,
  extra: Partial<DensifyOptions> = {},
): DensifyResult[] {
  const cached = new ConversationStore();
  const uncached = new ConversationStore({ reads: { maxEntries: 0 } });
  const join = vi.spyOn(SegmentedText.prototype, 'toString');
  const results: DensifyResult[] = [];
  for (const [i, text] of texts.entries()) {
    const options = {
      body: Buffer.from(text),
      sessionId: 's',
      now: i * 1000,
      api: 'anthropic' as const,
      pressureTokens: 150e3,
      ...extra,
    };
    join.mockClear();
    const a = densifyRequest({ ...options, store: cached });
    if (i > 0) expect(join).not.toHaveBeenCalled();
    const b = densifyRequest({ ...options, store: uncached });
    expect(a.body.equals(b.body)).toBe(true);
    if (i > 0) check(cached, a, b);
    results.push(a);
  }
  join.mockRestore();
  return results;
}
