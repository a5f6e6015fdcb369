import { describe, expect, it } from 'vitest';
import { fc, test } from '@fast-check/vitest';
import { CACHE_PROVIDERS, CACHE_RULES, type CacheRules } from './cacheRules.js';
import {
  cachePrefix,
  entryLayout,
  readTokensAt,
  type CachedPrefix,
  type PromptLayout,
} from './cachePrefix.js';
import { weighPrompt } from './priceCall.js';

const MIN = 60_000;

/** A prompt of `blocks` blocks of `each` tokens, breakpoints at the given block counts. */
function prompt(
  blocks: number,
  each: number,
  breakpoints: readonly number[] = [blocks],
  at?: number,
): PromptLayout {
  return {
    blocks,
    tokensBefore: (k) => Math.min(k, blocks) * each,
    breakpoints,
    ...(at === undefined ? {} : { at }),
  };
}

/** What `sent` left in the provider's cache (sent to an empty cache). */
function cachedAfter(rules: CacheRules, sent: PromptLayout): readonly CachedPrefix[] {
  return cachePrefix({ rules, cached: [], next: sent, firstChangedBlock: 0 }).cached;
}

const anthropic = CACHE_RULES.anthropic;

describe('#23.2 cachePrefix: one table of the prefix rules', () => {
  const cases: {
    name: string;
    rules: CacheRules;
    sent: PromptLayout;
    next: PromptLayout;
    firstChangedBlock: number;
    expected: { readTokens: number; writeTokens: number; uncachedTokens: number };
  }[] = [
    {
      name: 'implicit (OpenAI): the unchanged prefix of the previous prompt is read, no write premium',
      rules: CACHE_RULES.openai,
      sent: prompt(30, 100),
      next: prompt(32, 100),
      firstChangedBlock: 30,
      expected: { readTokens: 2_944, writeTokens: 0, uncachedTokens: 256 },
    },
    {
      name: 'implicit (OpenAI): an edit at block 12 reads 1,152 of the 1,200 unchanged (128-token steps)',
      rules: CACHE_RULES.openai,
      sent: prompt(30, 100),
      next: prompt(32, 100),
      firstChangedBlock: 12,
      expected: { readTokens: 1_152, writeTokens: 0, uncachedTokens: 2_048 },
    },
    {
      name: 'implicit (Gemini): a 3,000-token unchanged prefix is under the 4,096 minimum',
      rules: CACHE_RULES.gemini,
      sent: prompt(50, 100),
      next: prompt(52, 100),
      firstChangedBlock: 30,
      expected: { readTokens: 0, writeTokens: 0, uncachedTokens: 5_200 },
    },
    {
      name: 'explicit: no edit, the previous prompt ends 2 blocks before the breakpoint: read, rest written',
      rules: anthropic,
      sent: prompt(30, 100),
      next: prompt(32, 100),
      firstChangedBlock: 30,
      expected: { readTokens: 3_000, writeTokens: 200, uncachedTokens: 0 },
    },
    {
      name: 'explicit: an edit within the lookback falls back to an anchor below it',
      rules: anthropic,
      sent: prompt(30, 100, [15, 30]),
      next: prompt(32, 100, [15, 32]),
      firstChangedBlock: 20,
      expected: { readTokens: 1_500, writeTokens: 1_700, uncachedTokens: 0 },
    },
    {
      name: 'explicit: an edit beyond the lookback with an anchor below it reads the anchor',
      rules: anthropic,
      sent: prompt(60, 100, [12, 60]),
      next: prompt(62, 100, [12, 62]),
      firstChangedBlock: 20,
      expected: { readTokens: 1_200, writeTokens: 5_000, uncachedTokens: 0 },
    },
    {
      name: 'explicit: an edit beyond the lookback with no anchor finds nothing: all written',
      rules: anthropic,
      sent: prompt(60, 100),
      next: prompt(62, 100),
      firstChangedBlock: 20,
      expected: { readTokens: 0, writeTokens: 6_200, uncachedTokens: 0 },
    },
    {
      name: 'explicit: a cached prefix 25 blocks before the only breakpoint is beyond the lookback',
      rules: anthropic,
      sent: prompt(30, 100),
      next: prompt(55, 100),
      firstChangedBlock: 30,
      expected: { readTokens: 0, writeTokens: 5_500, uncachedTokens: 0 },
    },
    {
      name: 'explicit: the system-prompt breakpoint reaches a prefix the last one cannot',
      rules: anthropic,
      sent: prompt(60, 100, [15, 60]),
      next: prompt(90, 100, [15, 90]),
      firstChangedBlock: 60,
      expected: { readTokens: 1_500, writeTokens: 7_500, uncachedTokens: 0 },
    },
    {
      name: 'explicit: under the minimum nothing is cached, so nothing is read or written',
      rules: anthropic,
      sent: prompt(9, 100),
      next: prompt(10, 100),
      firstChangedBlock: 9,
      expected: { readTokens: 0, writeTokens: 0, uncachedTokens: 1_000 },
    },
    {
      name: 'explicit: only up to the last breakpoint is written; the tail is paid in full',
      rules: anthropic,
      sent: prompt(30, 100),
      next: prompt(40, 100, [35]),
      firstChangedBlock: 30,
      expected: { readTokens: 3_000, writeTokens: 500, uncachedTokens: 500 },
    },
    {
      name: '1-hour TTL: a 10-minute gap still reads',
      rules: CACHE_RULES['anthropic-1h'],
      sent: prompt(30, 100, [30], 0),
      next: prompt(32, 100, [32], 10 * MIN),
      firstChangedBlock: 30,
      expected: { readTokens: 3_000, writeTokens: 200, uncachedTokens: 0 },
    },
    {
      name: '5-minute TTL: the same 10-minute gap finds the cache gone',
      rules: anthropic,
      sent: prompt(30, 100, [30], 0),
      next: prompt(32, 100, [32], 10 * MIN),
      firstChangedBlock: 30,
      expected: { readTokens: 0, writeTokens: 3_200, uncachedTokens: 0 },
    },
  ];

  it.each(cases)('$name', ({ rules, sent, next, firstChangedBlock, expected }) => {
    const result = cachePrefix({
      rules,
      cached: cachedAfter(rules, sent),
      next,
      firstChangedBlock,
    });
    expect({
      readTokens: result.readTokens,
      writeTokens: result.writeTokens,
      uncachedTokens: result.uncachedTokens,
    }).toEqual(expected);
  });

  it('1-hour TTL writes at 2×, 5-minute at 1.25×', () => {
    const split = { cacheReadTokens: 0, cacheWriteTokens: 1_000, uncachedTokens: 0 };
    expect(weighPrompt(CACHE_RULES['anthropic-1h'], split)).toBe(2_000);
    expect(weighPrompt(anthropic, split)).toBe(1_250);
  });

  it('every use refreshes the TTL: three calls 4 minutes apart all read', () => {
    let cached = cachedAfter(anthropic, prompt(30, 100, [30], 0));
    for (const [i, at] of [4 * MIN, 8 * MIN].entries()) {
      const next = prompt(31 + i, 100, [31 + i], at);
      const result = cachePrefix({ rules: anthropic, cached, next, firstChangedBlock: 30 + i });
      expect(result.readTokens).toBe((30 + i) * 100);
      cached = result.cached;
    }
  });

  it('an edited-away prefix stays gone even when the edit is undone', () => {
    const first = cachedAfter(anthropic, prompt(30, 100));
    const edited = cachePrefix({
      rules: anthropic,
      cached: first,
      next: prompt(31, 100),
      firstChangedBlock: 25,
    });
    expect(edited.cached.map((p) => p.blocks)).toEqual([31]);
  });

  it('entryLayout: breakpoints and token prefixes at entry boundaries', () => {
    const { layout, blocksBefore } = entryLayout(
      [
        { blocks: 1, tokens: 500 },
        { blocks: 3, tokens: 900 },
        { blocks: 2, tokens: 100 },
      ],
      { breakpointsAtEntries: [1, 3] },
    );
    expect(blocksBefore).toEqual([0, 1, 4, 6]);
    expect(layout.breakpoints).toEqual([1, 6]);
    expect([0, 1, 2, 4, 5, 6].map((k) => layout.tokensBefore(k))).toEqual([
      0, 500, 500, 1_400, 1_400, 1_500,
    ]);
  });
});

const scenario = fc.record({
  provider: fc.constantFrom(...CACHE_PROVIDERS),
  each: fc.integer({ min: 0, max: 400 }),
  sentBlocks: fc.integer({ min: 1, max: 80 }),
  added: fc.integer({ min: 0, max: 30 }),
  anchor: fc.integer({ min: 0, max: 80 }),
  edit: fc.integer({ min: 0, max: 110 }),
  later: fc.integer({ min: 0, max: 110 }),
});

describe('#23.2 cachePrefix: properties', () => {
  test.prop([scenario])(
    'reads + writes + uncached = the prompt; an edit never reads more, a later edit never less',
    (s) => {
      const rules = CACHE_RULES[s.provider];
      const sent = prompt(s.sentBlocks, s.each, [s.anchor, s.sentBlocks]);
      const cached = cachedAfter(rules, sent);
      const blocks = s.sentBlocks + s.added;
      const next = prompt(blocks, s.each, [s.anchor, blocks]);
      const at = (firstChangedBlock: number) =>
        cachePrefix({
          rules,
          cached,
          next,
          firstChangedBlock: Math.min(firstChangedBlock, blocks),
        });
      const noEdit = at(s.sentBlocks);
      const edited = at(Math.min(s.edit, s.sentBlocks));
      const later = at(Math.min(Math.max(s.edit, s.later), s.sentBlocks));
      for (const r of [noEdit, edited, later]) {
        expect(r.readTokens + r.writeTokens + r.uncachedTokens).toBe(blocks * s.each);
        expect(Math.min(r.readTokens, r.writeTokens, r.uncachedTokens)).toBeGreaterThanOrEqual(0);
      }
      expect(edited.readTokens).toBeLessThanOrEqual(noEdit.readTokens);
      expect(later.readTokens).toBeGreaterThanOrEqual(edited.readTokens);
    },
  );
});

describe('#24.4 readTokensAt: many edit positions priced in one pass', () => {
  const prefixArb = fc.record({
    blocks: fc.integer({ min: 0, max: 40 }),
    tokens: fc.integer({ min: 0, max: 5000 }),
    lastUsedAt: fc.option(fc.integer({ min: 0, max: 2_000_000 }), { nil: undefined }),
  });
  const rulesArb = fc
    .tuple(
      fc.constantFrom(...CACHE_PROVIDERS),
      fc.integer({ min: 0, max: 3000 }),
      fc.option(fc.integer({ min: 0, max: 20 }), { nil: undefined }),
    )
    .map(([provider, minCacheableTokens, lookbackBlocks]): CacheRules => {
      const base = CACHE_RULES[provider];
      return {
        ...base,
        minCacheableTokens,
        ...(lookbackBlocks === undefined ? {} : { lookbackBlocks }),
      };
    });
  test.prop(
    [
      rulesArb,
      fc.array(prefixArb, { maxLength: 12 }),
      fc.integer({ min: 1, max: 40 }),
      fc.integer({ min: 1, max: 300 }),
      fc.array(fc.integer({ min: 0, max: 45 }), { maxLength: 4 }),
      fc.option(fc.integer({ min: 0, max: 2_000_000 }), { nil: undefined }),
      fc.array(fc.integer({ min: -2, max: 45 }), { maxLength: 10 }),
    ],
    { numRuns: 300 },
  )(
    'equals cachePrefix(…).readTokens at each position, explicit and automatic',
    (rules, cached, blocks, each, breakpoints, at, positions) => {
      const next = prompt(blocks, each, breakpoints, at);
      expect(readTokensAt({ rules, cached, next }, positions)).toEqual(
        positions.map(
          (firstChangedBlock) => cachePrefix({ rules, cached, next, firstChangedBlock }).readTokens,
        ),
      );
    },
  );
});

describe('#24.4 cachePrefix, automatic caching: the cacheable minimum', () => {
  test.prop(
    [
      fc.integer({ min: 0, max: 3000 }),
      fc.option(fc.integer({ min: -1, max: 500 }), { nil: undefined }),
      fc.integer({ min: 1, max: 40 }),
      fc.integer({ min: 0, max: 300 }),
      fc.integer({ min: 0, max: 45 }),
      fc.integer({ min: -2, max: 45 }),
    ],
    { numRuns: 300 },
  )(
    'a read is nothing or at least the minimum, and a prefix below it reads no blocks',
    (minCacheableTokens, readIncrementTokens, blocks, each, heldBlocks, firstChangedBlock) => {
      const rules: CacheRules = {
        ...CACHE_RULES.openai,
        minCacheableTokens,
        ...(readIncrementTokens === undefined ? {} : { readIncrementTokens }),
      };
      const cached = [{ blocks: heldBlocks, tokens: heldBlocks * each, lastUsedAt: undefined }];
      const next = prompt(blocks, each, []);
      const result = cachePrefix({ rules, cached, next, firstChangedBlock });
      const held = Math.max(0, Math.min(heldBlocks, firstChangedBlock, blocks)) * each;
      expect(result.readTokens === 0 || result.readTokens >= minCacheableTokens).toBe(true);
      expect(result.readTokens).toBeLessThanOrEqual(held);
      if (held < minCacheableTokens) expect(result).toMatchObject({ readTokens: 0, readBlocks: 0 });
    },
  );
});
