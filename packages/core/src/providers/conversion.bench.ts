/** Cost of turning a long, pruned history into each API's request (runs before every model call). */
import { bench, describe } from 'vitest';
import type { IContent } from '../services/history/IContent.js';
import { human, readFile, replaceInFile, toolResult } from '../test-utils/historyBuilders.js';
import { toAnthropicMessages } from './anthropicConversion.js';
import { toGeminiContents } from './geminiConversion.js';
import { toOpenAIMessages } from './openaiConversion.js';
import { pairToolCalls } from './pairToolCalls.js';

/** ~1,500 entries: 450 read and 250 edit round trips (2 KB results), 50 orphan responses left by pruning. */
function longHistory(): IContent[] {
  const history: IContent[] = [human('start')];
  const body = 'x'.repeat(2_000);
  for (let i = 0; i < 500; i++) {
    const [call, result] = readFile(`r${i}`, `src/f${i % 50}.ts`, body);
    if (i % 10 === 0)
      history.push(toolResult({ id: `gone${i}`, name: 'read_file', result: 'orphan' }));
    else history.push(call, result);
    if (i % 2 === 0) history.push(...replaceInFile(`w${i}`, `src/f${i % 50}.ts`));
    if (i % 25 === 0) history.push(human(`step ${i}`));
  }
  return history;
}

const history = longHistory();

describe(`request conversion, ${history.length} entries`, () => {
  bench('pairToolCalls', () => {
    pairToolCalls(history);
  });
  bench('toOpenAIMessages', () => {
    toOpenAIMessages(history, 'system');
  });
  bench('toAnthropicMessages', () => {
    toAnthropicMessages(history);
  });
  bench('toGeminiContents', () => {
    toGeminiContents(history);
  });
});
