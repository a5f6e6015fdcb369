import { describe, expect, it, vi } from 'vitest';
import { ai, human, readFile, toolCall, toolResult } from '../../test-utils/historyBuilders.js';
import { EMPTY_DENSITY_METADATA, type DensityResult } from '../../core/compression/types.js';
import { countTokensFromScratch, HistoryService, HistoryServiceError } from './HistoryService.js';
import { createAiMessage, createUserMessage, type IContent } from './IContent.js';

const contentText = (entry: IContent) => contentTokenText(entry);
import { charEstimateTokenCounter, contentTokenText, type TokenCounter } from './TokenCounter.js';
import { DensityResultError } from './validateDensityResult.js';

function density(
  removals: readonly number[],
  replacements: readonly (readonly [number, IContent])[] = [],
): DensityResult {
  return { removals, replacements: new Map(replacements), metadata: EMPTY_DENSITY_METADATA };
}

/** Counts characters, so expected totals are easy to compute by hand. */
const charCounter: TokenCounter = { countText: (text) => text.length };

function serviceWith(
  entries: readonly IContent[],
  counter: TokenCounter = charCounter,
): HistoryService {
  const service = new HistoryService({ tokenCounter: counter });
  service.addAll(entries);
  return service;
}

describe('HistoryService basics', () => {
  it('works with the default o200k token counter', async () => {
    const service = new HistoryService();
    service.add(human('hello world'));
    await service.waitForTokenUpdates();
    expect(service.getTotalTokens()).toBe(2);
  });

  it('counts tokens of added entries once settled, and emits tokensUpdated', async () => {
    const service = new HistoryService({ tokenCounter: charCounter });
    const seen: number[] = [];
    service.events.on('tokensUpdated', ({ totalTokens }) => seen.push(totalTokens));
    service.add(human('abcd'));
    service.add(ai('xy'));
    await service.waitForTokenUpdates();
    expect(service.getTotalTokens()).toBe(6);
    expect(seen.at(-1)).toBe(6);
  });

  it('getCurated drops empty AI entries but getRawHistory keeps storage indices', () => {
    const empty = createAiMessage([]);
    const blank = createAiMessage('   ');
    const service = serviceWith([human('q'), empty, ai('a'), blank]);
    expect(service.getCurated().map((e) => e.speaker)).toEqual(['human', 'ai']);
    expect(service.getRawHistory()).toHaveLength(4);
    expect(service.getRawHistory()[1]).toBe(empty);
  });

  it('REQ-HD-003.5 getRawHistory is a read-only view of the backing array', () => {
    const service = serviceWith([human('a')]);
    const view = service.getRawHistory();
    service.add(human('b'));
    expect(view).toHaveLength(2);
    expect(service.getRawHistory()).toBe(view);
  });

  it('clear empties history and resets the total', async () => {
    const service = serviceWith([human('abc')]);
    await service.waitForTokenUpdates();
    service.clear();
    await service.waitForTokenUpdates();
    expect(service.length).toBe(0);
    expect(service.getTotalTokens()).toBe(0);
  });

  it('clear while counting is pending does not resurrect the cleared tokens', async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const slow: TokenCounter = { countText: async (text) => (await gate, text.length) };
    const service = serviceWith([human('abcdef')], slow);
    service.clear();
    release();
    await service.waitForTokenUpdates();
    expect(service.getTotalTokens()).toBe(0);
  });

  it('estimateTokensForContents counts arbitrary entries', async () => {
    const service = new HistoryService({ tokenCounter: charCounter });
    expect(await service.estimateTokensForContents([human('abc'), ai('de')])).toBe(5);
  });
});

describe('HistoryService compression lock', () => {
  it('queues add() calls during compression and appends them after, in order', async () => {
    const service = serviceWith([human('old')]);
    service.startCompression();
    service.add(human('during-1'));
    service.add(human('during-2'));
    service.replaceHistory([ai('summary')]);
    expect(service.getRawHistory().map((e) => e.blocks)).toEqual([ai('summary').blocks]);
    service.endCompression();
    await service.waitForTokenUpdates();
    expect(service.getRawHistory().map((e) => (e.blocks[0] as { text: string }).text)).toEqual([
      'summary',
      'during-1',
      'during-2',
    ]);
    expect(service.getTotalTokens()).toBe('summary'.length + 16);
  });

  it('refuses a density edit while compression holds the history', async () => {
    const service = serviceWith([human('a')]);
    service.startCompression();
    await expect(service.applyDensityResult(density([0]))).rejects.toMatchObject({
      code: 'HISTORY_COMPRESSION_IN_PROGRESS',
    });
    service.endCompression();
    expect(service.length).toBe(1);
  });

  it('endCompression without startCompression is a typed error', () => {
    const service = new HistoryService();
    expect(() => service.endCompression()).toThrow(HistoryServiceError);
  });
});

describe('HistoryService.applyDensityResult', () => {
  const entries = (): IContent[] => [
    human('u0'),
    ...readFile('r1', 'a.ts', 'AAAA'),
    ai('a3'),
    human('u4'),
  ];

  it('REQ-HD-003.1 applies removals and replacements to the raw history', async () => {
    const initial = entries();
    const service = serviceWith(initial);
    const replacement = createUserMessage('U4');
    await service.applyDensityResult(density([1, 2], [[4, replacement]]));
    expect(service.getRawHistory()).toEqual([initial[0], initial[3], replacement]);
  });

  it('REQ-HD-003.2 applies replacements before removals, against the original indices', async () => {
    const initial = entries();
    const service = serviceWith(initial);
    const replacement = createUserMessage('replaced-4');
    // If removals ran first, index 4 would no longer exist (length 3) or point elsewhere.
    await service.applyDensityResult(density([0, 1, 2], [[4, replacement]]));
    expect(service.getRawHistory()).toEqual([initial[3], replacement]);
  });

  it('REQ-HD-003.3 removes from the highest index down, so every index means the original entry', async () => {
    const initial = entries();
    const service = serviceWith(initial);
    await service.applyDensityResult(density([0, 4, 2]));
    expect(service.getRawHistory()).toEqual([initial[1], initial[3]]);
  });

  it('REQ-HD-003.4 recalculates tokens through the lock before resolving', async () => {
    const service = serviceWith(entries());
    await service.waitForTokenUpdates();
    const before = service.getTotalTokens();
    await service.applyDensityResult(density([2]));
    expect(service.getTotalTokens()).toBe(before - 'AAAA'.length);
  });

  it('REQ-HD-003.4 the recalculation waits behind counting already on the lock (no entry tokenized twice)', async () => {
    let open: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const calls = new Map<string, number>();
    const gated: TokenCounter = {
      countText: async (text) => {
        calls.set(text, (calls.get(text) ?? 0) + 1);
        await gate;
        return text.length;
      },
    };
    const service = new HistoryService({ tokenCounter: gated });
    const kept = human('slow-entry');
    const doomed = human('gone');
    service.addAll([kept, doomed]); // background counting starts on `kept` and blocks on the gate
    const applied = service.applyDensityResult(density([1]));
    await Promise.resolve();
    open();
    await applied;
    expect(calls.get(contentText(kept))).toBe(1);
    expect(service.getTotalTokens()).toBe(contentText(kept).length);
  });

  it('#12.7 tokensUpdated is emitted when re-added entries are already counted', async () => {
    const service = serviceWith([]);
    const entry = human('abcd');
    service.add(entry);
    await service.waitForTokenUpdates();
    service.clear();
    const seen: number[] = [];
    service.events.on('tokensUpdated', ({ totalTokens }) => seen.push(totalTokens));
    service.add(entry); // cached: no tokenizing needed
    await service.waitForTokenUpdates();
    expect(seen).toEqual([4]);
  });

  it('REQ-HD-001.6 throws DENSITY_INDEX_CONFLICT when an index is removed and replaced, changing nothing', async () => {
    const initial = entries();
    const service = serviceWith(initial);
    await expect(service.applyDensityResult(density([1], [[1, human('x')]]))).rejects.toMatchObject(
      {
        code: 'DENSITY_INDEX_CONFLICT',
      },
    );
    expect(service.getRawHistory()).toEqual(initial);
  });

  it.each([[-1], [5], [1.5], [Number.NaN]])(
    'REQ-HD-001.7 throws DENSITY_INDEX_OUT_OF_BOUNDS for removal index %s, changing nothing',
    async (index) => {
      const initial = entries();
      const service = serviceWith(initial);
      await expect(service.applyDensityResult(density([index]))).rejects.toBeInstanceOf(
        DensityResultError,
      );
      await expect(service.applyDensityResult(density([index]))).rejects.toMatchObject({
        code: 'DENSITY_INDEX_OUT_OF_BOUNDS',
      });
      expect(service.getRawHistory()).toEqual(initial);
    },
  );

  it('REQ-HD-001.7 throws DENSITY_INDEX_OUT_OF_BOUNDS for a replacement index past the end', async () => {
    const initial = entries();
    const service = serviceWith(initial);
    await expect(service.applyDensityResult(density([], [[5, human('x')]]))).rejects.toMatchObject({
      code: 'DENSITY_INDEX_OUT_OF_BOUNDS',
    });
    expect(service.getRawHistory()).toEqual(initial);
  });

  it('throws DENSITY_DUPLICATE_REMOVAL for a repeated removal index, changing nothing', async () => {
    const initial = entries();
    const service = serviceWith(initial);
    await expect(service.applyDensityResult(density([2, 2]))).rejects.toMatchObject({
      code: 'DENSITY_DUPLICATE_REMOVAL',
    });
    expect(service.getRawHistory()).toEqual(initial);
  });

  it('a failed validation applies no replacement either (validation happens first)', async () => {
    const initial = entries();
    const service = serviceWith(initial);
    await expect(
      service.applyDensityResult(density([9], [[0, human('should not appear')]])),
    ).rejects.toThrow();
    expect(service.getRawHistory()[0]).toBe(initial[0]);
  });
});

describe('HistoryService token recalculation', () => {
  it('REQ-HD-003.6 recalculateTotalTokens tokenizes only entries it has not seen', async () => {
    const countText = vi.fn((text: string) => text.length);
    const service = serviceWith([human('aaaa'), human('bbbb'), human('cccc')], { countText });
    await service.waitForTokenUpdates();
    expect(countText).toHaveBeenCalledTimes(3);
    await service.applyDensityResult(density([], [[1, human('BB')]]));
    expect(countText).toHaveBeenCalledTimes(4);
    expect(countText).toHaveBeenLastCalledWith('BB');
    await service.recalculateTotalTokens();
    expect(countText).toHaveBeenCalledTimes(4);
    expect(service.getTotalTokens()).toBe(10);
  });

  it('REQ-HD-013.3 a tokenizer failure during recalculation propagates from applyDensityResult', async () => {
    let failing = false;
    const counter: TokenCounter = {
      countText: (text) => {
        if (failing) throw new Error('tokenizer exploded');
        return text.length;
      },
    };
    const service = serviceWith([human('a'), human('b')], counter);
    await service.waitForTokenUpdates();
    failing = true;
    await expect(service.applyDensityResult(density([], [[0, human('new')]]))).rejects.toThrow(
      'tokenizer exploded',
    );
  });

  it('REQ-HD-013.3 a tokenizer failure in background counting is rethrown by the next waitForTokenUpdates', async () => {
    const counter: TokenCounter = {
      countText: () => Promise.reject(new Error('count failed')),
    };
    const service = serviceWith([human('a')], counter);
    await expect(service.waitForTokenUpdates()).rejects.toThrow('count failed');
    // Reported once, and the lock keeps working afterwards.
    await expect(service.waitForTokenUpdates()).resolves.toBeUndefined();
  });

  it('the same entry object added twice counts twice, and removing one occurrence subtracts once', async () => {
    const shared = human('abc');
    const service = serviceWith([shared, shared, ai('z')]);
    await service.waitForTokenUpdates();
    expect(service.getTotalTokens()).toBe(7);
    await service.applyDensityResult(density([0]));
    expect(service.getTotalTokens()).toBe(4);
  });

  it('tool calls and responses count their parameters, results and errors', async () => {
    const service = serviceWith(
      [
        toolCall({ id: 'c', name: 'grep', parameters: { pattern: 'x' } }),
        toolResult({ id: 'c', name: 'grep', result: 'found', error: 'partial' }),
      ],
      charEstimateTokenCounter,
    );
    await service.waitForTokenUpdates();
    expect(service.getTotalTokens()).toBe(
      await countTokensFromScratch(service.getRawHistory(), charEstimateTokenCounter),
    );
    expect(service.getTotalTokens()).toBeGreaterThan(0);
  });
});
