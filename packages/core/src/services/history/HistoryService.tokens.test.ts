import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EMPTY_DENSITY_METADATA } from '../../core/compression/types.js';
import { countTokensFromScratch, HistoryService } from './HistoryService.js';
import { createAiMessage, createUserMessage, type IContent } from './IContent.js';
import type { TokenCounter } from './TokenCounter.js';

/** Async, so counting really lags behind mutations, as it would with a remote tokenizer. */
const lagging: TokenCounter = {
  countText: async (text) => {
    await Promise.resolve();
    return text.length;
  },
};

type Op =
  | { readonly kind: 'add'; readonly texts: readonly string[]; readonly reuse: boolean }
  | { readonly kind: 'density'; readonly removeMask: number; readonly replaceMask: number }
  | { readonly kind: 'clear' }
  | { readonly kind: 'compress'; readonly keep: number; readonly during: readonly string[] }
  | { readonly kind: 'settle' };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({
      kind: fc.constant('add' as const),
      texts: fc.array(fc.string(), { minLength: 1, maxLength: 3 }),
      reuse: fc.boolean(),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('density' as const),
      removeMask: fc.nat(),
      replaceMask: fc.nat(),
    }),
  },
  { weight: 1, arbitrary: fc.constant({ kind: 'clear' as const }) },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('compress' as const),
      keep: fc.nat(4),
      during: fc.array(fc.string(), { maxLength: 2 }),
    }),
  },
  { weight: 2, arbitrary: fc.constant({ kind: 'settle' as const }) },
);

/** Builds a valid density result from bit masks over the current indices. */
function densityFrom(history: readonly IContent[], removeMask: number, replaceMask: number) {
  const removals: number[] = [];
  const replacements = new Map<number, IContent>();
  history.forEach((entry, index) => {
    const bit = 1 << (index % 30);
    if (removeMask & bit) removals.push(index);
    else if (replaceMask & bit)
      replacements.set(index, createAiMessage(`r${index}:${entry.blocks.length}`));
  });
  return { removals, replacements, metadata: EMPTY_DENSITY_METADATA };
}

async function run(service: HistoryService, op: Op, pool: IContent[]): Promise<void> {
  switch (op.kind) {
    case 'add':
      for (const text of op.texts) {
        const entry =
          op.reuse && pool.length > 0
            ? (pool[text.length % pool.length] as IContent)
            : createUserMessage(text);
        pool.push(entry);
        service.add(entry);
      }
      return;
    case 'density':
      await service.waitForTokenUpdates();
      await service.applyDensityResult(
        densityFrom(service.getRawHistory(), op.removeMask, op.replaceMask),
      );
      return;
    case 'clear':
      service.clear();
      return;
    case 'compress': {
      await service.waitForTokenUpdates();
      service.startCompression();
      for (const text of op.during) service.add(createUserMessage(text));
      service.replaceHistory(service.getRawHistory().slice(-op.keep));
      service.endCompression();
      return;
    }
    case 'settle':
      await service.waitForTokenUpdates();
      return;
  }
}

describe('HistoryService token cache', () => {
  it('the cached running total always equals a from-scratch recount (random add / density / clear / compress sequences)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(opArb, { maxLength: 25 }), async (ops) => {
        const service = new HistoryService({ tokenCounter: lagging });
        const pool: IContent[] = [];
        for (const op of ops) await run(service, op, pool);
        await service.waitForTokenUpdates();
        const expected = await countTokensFromScratch(service.getRawHistory(), lagging);
        expect(service.getTotalTokens()).toBe(expected);
        await service.recalculateTotalTokens();
        expect(service.getTotalTokens()).toBe(expected);
      }),
      { numRuns: 60 },
    );
  });
});
