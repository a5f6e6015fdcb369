import { describe, expect, it } from 'vitest';
import { CACHE_RULES } from '../cache/cacheRules.js';
import { cachePrefix, type CachedPrefix } from '../cache/cachePrefix.js';
import { anthropicPromptBlocks } from './promptBlocks.js';
import { PromptCache, type PromptBlock } from './promptCache.js';

const MIN = 60_000;
const block = (key: string, tokens: number, breakpoint = false): PromptBlock => ({
  key,
  tokens,
  breakpoint,
});
/** `n` blocks of 100 tokens, the last one with a breakpoint. */
const prompt = (n: number): PromptBlock[] =>
  Array.from({ length: n }, (_, i) => block(`b${i}`, 100, i === n - 1));

describe('#24.5 PromptCache: Anthropic explicit cache', () => {
  it('writes up to the breakpoint, then reads that prefix and writes only the rest', () => {
    const cache = new PromptCache(CACHE_RULES.anthropic);
    const first = cache.bill(prompt(20), 0);
    expect(first).toMatchObject({ cacheReadTokens: 0, cacheWriteTokens: 2_000, uncachedTokens: 0 });
    expect(first.weighted).toBe(2_500);
    const second = cache.bill(prompt(25), MIN);
    expect(second).toMatchObject({ cacheReadTokens: 2_000, cacheWriteTokens: 500 });
    expect(second.weighted).toBeCloseTo(200 + 625);
  });

  it('a gap past the 5-minute TTL since the last use finds the cache cold', () => {
    const cache = new PromptCache(CACHE_RULES.anthropic);
    cache.bill(prompt(20), 0);
    cache.bill(prompt(21), 4 * MIN);
    expect(cache.bill(prompt(22), 8 * MIN).cacheReadTokens).toBe(2_100);
    expect(cache.bill(prompt(23), 14 * MIN).cacheReadTokens).toBe(0);
  });

  it('a cached prefix more than 20 blocks before every breakpoint is not found', () => {
    const cache = new PromptCache(CACHE_RULES.anthropic);
    cache.bill(prompt(20), 0);
    expect(cache.bill(prompt(39), 1_000).cacheReadTokens).toBe(2_000);
    const far = new PromptCache(CACHE_RULES.anthropic);
    far.bill(prompt(20), 0);
    expect(far.bill(prompt(41), 1_000).cacheReadTokens).toBe(0);
  });

  it('an edit inside the cached prefix reads only up to an earlier breakpoint', () => {
    const cache = new PromptCache(CACHE_RULES.anthropic);
    const system = block('system', 1_500, true);
    cache.bill([system, ...prompt(5)], 0);
    const edited = [system, block('edited', 100), ...prompt(5).slice(1)];
    expect(cache.bill(edited, 1_000)).toMatchObject({
      cacheReadTokens: 1_500,
      cacheWriteTokens: 500,
    });
  });

  it('a prompt under 1,024 tokens is neither written nor read; text after the last breakpoint is base price', () => {
    const cache = new PromptCache(CACHE_RULES.anthropic);
    expect(cache.bill(prompt(10), 0)).toMatchObject({ uncachedTokens: 1_000, weighted: 1_000 });
    const tail = [...prompt(20), block('tail', 300)];
    expect(cache.bill(tail, 1_000)).toMatchObject({
      cacheWriteTokens: 2_000,
      uncachedTokens: 300,
      weighted: 2_800,
    });
  });
});

describe('#24.5 PromptCache: OpenAI automatic cache', () => {
  it('#24.5 bills through cachePrefix: reads the previous prefix at 0.1×, rounded to 128-token steps past 1,024, no write premium', () => {
    const cache = new PromptCache(CACHE_RULES.openai);
    const plain = (n: number) => Array.from({ length: n }, (_, i) => block(`b${i}`, 100));
    expect(cache.bill(plain(20), 0).weighted).toBe(2_000);
    const next = cache.bill(plain(25), 1_000);
    // 2,000 unchanged tokens are read as 1,024 + 7 × 128.
    expect(next).toMatchObject({
      cacheReadTokens: 1_920,
      cacheWriteTokens: 0,
      uncachedTokens: 580,
    });
    expect(next.weighted).toBeCloseTo(772);
  });
});

describe('#24.5 PromptCache is the one cache model', () => {
  it('#24.5 each bill equals cachePrefix on the same layout, unchanged blocks and held prefixes', () => {
    const rules = CACHE_RULES.anthropic;
    const cache = new PromptCache(rules);
    const system = block('system', 1_500, true);
    const prompts = [
      [system, ...prompt(10)],
      [system, ...prompt(14)],
      [system, block('edited', 100), ...prompt(14).slice(1)],
      [system, block('edited', 100), ...prompt(20).slice(1)],
    ];
    let cached: readonly CachedPrefix[] = [];
    let previous: readonly PromptBlock[] = [];
    prompts.forEach((blocks, n) => {
      const at = n * 1_000;
      let unchanged = 0;
      while (unchanged < previous.length && previous[unchanged]?.key === blocks[unchanged]?.key)
        unchanged++;
      const ends = blocks.map((_, i) => blocks.slice(0, i + 1).reduce((s, b) => s + b.tokens, 0));
      const expected = cachePrefix({
        rules,
        cached,
        next: {
          blocks: blocks.length,
          tokensBefore: (k) => (k <= 0 ? 0 : (ends[k - 1] ?? 0)),
          breakpoints: blocks.flatMap((b, i) => (b.breakpoint ? [i + 1] : [])),
          at,
        },
        firstChangedBlock: unchanged,
      });
      expect(cache.bill(blocks, at)).toMatchObject({
        cacheReadTokens: expected.readTokens,
        cacheWriteTokens: expected.writeTokens,
        uncachedTokens: expected.uncachedTokens,
      });
      cached = expected.cached;
      previous = blocks;
    });
  });
});

describe('#24.5 anthropicPromptBlocks', () => {
  it('orders tools, system, messages; marks breakpoints; keys ignore cache_control', () => {
    const count = (text: string) => text.length;
    const body = {
      tools: [{ name: 'Read' }],
      system: [{ type: 'text', text: 'sys', cache_control: { type: 'ephemeral' } }],
      messages: [
        { role: 'user', content: 'hi' },
        {
          role: 'assistant',
          content: [{ type: 'tool_use', id: 't', name: 'Read', input: { file_path: '/a' } }],
        },
        {
          role: 'user',
          content: [
            {
              type: 'tool_result',
              tool_use_id: 't',
              content: 'abc',
              cache_control: { type: 'ephemeral' },
            },
          ],
        },
      ],
    };
    const blocks = anthropicPromptBlocks(body, count);
    expect(blocks.map((b) => b.breakpoint)).toEqual([false, true, false, false, true]);
    expect(blocks.map((b) => b.tokens)).toEqual([15, 3, 2, 22, 3]);
    expect(blocks[4]?.key).not.toContain('cache_control');
    expect(blocks[4]?.key.startsWith('user^:')).toBe(true);
  });
});
