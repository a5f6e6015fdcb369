import { describe, expect, it } from 'vitest';
import { big, fakeStrategy, setup } from '../test-utils/compressionHandlerFixtures.js';

describe('CompressionHandler: the working budget compacts before the threshold (#35.1)', () => {
  it('#35.1 compress() runs once the history reaches the strategy’s compactionDueTokens, below the threshold; never when the strategy names none', async () => {
    const log: string[] = [];
    const due = { ...fakeStrategy({ log }), compactionDueTokens: () => 1 };
    const { handler } = await setup({ entries: [big(2), big(2)], strategy: due });
    expect(handler.shouldCompress()).toBe(false);
    await handler.ensureCompressionBeforeSend('p');
    expect(log.some((line) => line.startsWith('compress@'))).toBe(true);

    const quiet: string[] = [];
    const notDue = { ...fakeStrategy({ log: quiet }), compactionDueTokens: () => undefined };
    const other = await setup({ entries: [big(2), big(2)], strategy: notDue });
    await other.handler.ensureCompressionBeforeSend('p');
    expect(quiet.some((line) => line.startsWith('compress@'))).toBe(false);
  });

  it('#35.2 compress() runs whenever the strategy says a compaction may be finished (compactionFinishDue), though one ran a send before', async () => {
    const count = async (finish: boolean): Promise<number> => {
      const log: string[] = [];
      const seen: number[] = [];
      const strategy = {
        ...fakeStrategy({ log }),
        compactionDueTokens: () => 1,
        compactionFinishDue: (_settings: unknown, history: readonly unknown[]) => {
          seen.push(history.length);
          return finish;
        },
      };
      const { handler } = await setup({ entries: [big(2), big(2)], strategy });
      await handler.ensureCompressionBeforeSend('p1');
      await handler.ensureCompressionBeforeSend('p2');
      expect(seen[0]).toBe(2);
      return log.filter((line) => line.startsWith('compress@')).length;
    };
    // The early budget's compaction is held back by the loop guard a send after the first.
    expect(await count(false)).toBe(1);
    expect(await count(true)).toBe(2);
  });
});
