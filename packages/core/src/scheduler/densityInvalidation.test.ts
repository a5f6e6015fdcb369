import { describe, expect, it } from 'vitest';
import { ai, human } from '../test-utils/historyBuilders.js';
import { CACHE_RULES } from '../cache/cacheRules.js';
import { HistoryService } from '../services/history/HistoryService.js';
import type { IContent } from '../services/history/IContent.js';
import type { TokenCounter } from '../services/history/TokenCounter.js';
import { sentTokensFrom } from './densityInvalidation.js';

const chars: TokenCounter = { countText: (text) => text.length };

async function historyOf(entries: readonly IContent[]): Promise<HistoryService> {
  const history = new HistoryService({ tokenCounter: chars });
  history.addAll(entries);
  await history.waitForTokenUpdates();
  return history;
}

const tokensOf = (history: HistoryService, from: number, to: number) =>
  history
    .getRawHistory()
    .slice(from, to)
    .reduce((sum, entry) => sum + (history.tokensOf(entry) ?? 0), 0);

describe('#23.2 sentTokensFrom prices an edit with the one prefix model', () => {
  it('#23.2 OpenAI: an edit leaving less than 1,024 tokens before it loses the whole cached prompt', async () => {
    const history = await historyOf([human('a'.repeat(500)), ai('b'.repeat(3_000)), human('c')]);
    const sent = sentTokensFrom(history, { entries: 3, at: 0 }, CACHE_RULES.openai);
    const whole = tokensOf(history, 0, 3);
    // Without the edit the whole prompt is read, in 128-token steps past 1,024.
    const read = 1_024 + Math.floor((whole - 1_024) / 128) * 128;
    expect(sent.invalidated(1)).toBe(read);
    expect(sent.invalidated(3)).toBe(0);
  });

  it('#23.2 Anthropic: with more than 20 blocks added since the send, the sent prompt is out of reach anyway: an edit loses nothing', async () => {
    const sentEntries = [human('a'.repeat(5_000)), ai('b'), human('c'.repeat(2_000))];
    const added = Array.from({ length: 25 }, (_, i) => human(`new ${i}`));
    const history = await historyOf([...sentEntries, ...added]);
    const sent = sentTokensFrom(history, { entries: 3, at: 0 }, CACHE_RULES.anthropic);
    expect(sent.invalidated(2)).toBe(0);
  });

  it('#23.2 Anthropic: an edit within the lookback reads the prompt that ended before the AI entry', async () => {
    const history = await historyOf([
      human('a'.repeat(5_000)),
      ai('b'),
      human('c'.repeat(2_000)),
      ai('d'),
      human('e'.repeat(300)),
    ]);
    const sent = sentTokensFrom(history, { entries: 5, at: 0 }, CACHE_RULES.anthropic);
    expect(sent.invalidated(4)).toBe(tokensOf(history, 3, 5));
    expect(sent.invalidated(2)).toBe(tokensOf(history, 1, 5));
    expect(sent.anchored(2)).toBe(tokensOf(history, 2, 5));
  });
});
