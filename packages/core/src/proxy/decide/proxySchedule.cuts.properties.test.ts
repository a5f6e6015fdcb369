/**
 * The schedule's cuts, priced in one pass, against a direct reading of their definition: a cut at
 * an edited message removes that message's candidates and every later one's, and loses what the
 * provider would read up to the cut's first edited block (`cachePrefix`) below what it reads
 * unedited.
 */
import { fc, test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import { CACHE_RULES } from '../../cache/cacheRules.js';
import { cachePrefix } from '../../cache/cachePrefix.js';
import type { BatchCut } from '../../scheduler/densitySchedule.js';
import { wireCuts, type ScheduleInput } from './proxySchedule.js';
import { charTokens, wireCache, type WireShape } from './wireCache.js';
import type { ResultSite } from '../wire/wireHistory.js';

function directCuts(input: ScheduleInput): BatchCut[] {
  const { rules, cache } = input;
  const newestBlock = cache.blocksBeforeMessage[input.messageCount - 1] ?? cache.layout.blocks;
  const read = (firstChangedBlock: number) =>
    cachePrefix({ rules, cached: cache.held, next: cache.layout, firstChangedBlock }).readTokens;
  const messages = [...new Set(input.candidates.map((site) => site.messageIndex))].sort(
    (a, b) => a - b,
  );
  return messages.map((message) => {
    const from = input.candidates.filter((site) => site.messageIndex >= message);
    const first = Math.min(
      ...from.filter((s) => s.messageIndex === message).map((s) => s.blockIndex),
    );
    const editBlock = (cache.blocksBeforeMessage[message] ?? 0) + first;
    return {
      index: message,
      removedTokens: charTokens(from.reduce((sum, s) => sum + s.end - s.start, 0)),
      invalidatedTokens: Math.max(0, read(newestBlock) - read(Math.min(editBlock, newestBlock))),
    };
  });
}

const MESSAGE = fc.record({
  chars: fc.integer({ min: 1, max: 40_000 }),
  blocks: fc.integer({ min: 1, max: 4 }),
  breakpoint: fc.boolean(),
});

describe('wireCuts', () => {
  test.prop(
    [
      fc.array(MESSAGE, { minLength: 2, maxLength: 30 }),
      fc.array(fc.tuple(fc.nat(), fc.nat(3), fc.integer({ min: 1, max: 9000 })), {
        maxLength: 20,
      }),
      fc.constantFrom('anthropic', 'anthropic-1h', 'openai' as const),
      fc.boolean(),
    ],
    { numRuns: 200 },
  )(
    '#24.4 cuts priced in one pass equal each cut priced on its own',
    (messages, picks, provider, leadBreakpoint) => {
      const shape: WireShape = {
        leadChars: 8000,
        messages: messages.map((m, i) => ({ ...m, assistant: i % 2 === 1 })),
        breakpointMessages: messages.flatMap((m, i) => (m.breakpoint ? [i] : [])),
        leadBreakpoint,
      };
      const candidates: ResultSite[] = picks.map(([at, block, chars], i) => ({
        callId: `c${i}`,
        messageIndex: at % messages.length,
        blockIndex: block % (messages[at % messages.length]?.blocks ?? 1),
        start: i * 10_000,
        end: i * 10_000 + chars,
      }));
      const input: ScheduleInput = {
        candidates,
        messageCount: messages.length,
        totalChars: 1e6,
        cache: wireCache(shape),
        gapMs: 1000,
        hasPrevious: true,
        rules: CACHE_RULES[provider],
        pressureTokens: 150_000,
        paybackCalls: 10,
        riskBudget: undefined,
      };
      expect(wireCuts(input)).toEqual(directCuts(input));
    },
  );
});
