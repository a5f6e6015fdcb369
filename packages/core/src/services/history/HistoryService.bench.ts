/**
 * recalculateTotalTokens() after one entry is replaced, with the per-entry cache and from scratch,
 * at history sizes from 1k to 1M tokens. Entries are ~200-token snippets of code-like text.
 */
import { bench, describe } from 'vitest';
import { EMPTY_DENSITY_METADATA } from '../../core/compression/types.js';
import { countTokensFromScratch, HistoryService } from './HistoryService.js';
import { createToolResponse, createUserMessage, type IContent } from './IContent.js';

function snippet(seed: number): string {
  const lines: string[] = [];
  for (let i = 0; i < 12; i++) {
    lines.push(
      `  const value${seed}_${i} = compute(${seed * 31 + i}, "item-${(seed * 7 + i) % 97}");`,
    );
  }
  return `function block${seed}() {\n${lines.join('\n')}\n  return value${seed}_0;\n}`;
}

async function historyOf(targetTokens: number): Promise<HistoryService> {
  const service = new HistoryService();
  let seed = 0;
  while (service.getTotalTokens() < targetTokens) {
    // Add in batches of ~1% of the target so small histories are not overshot.
    const batchSize = Math.max(1, Math.floor(targetTokens / 20_000));
    const batch: IContent[] = [];
    for (let i = 0; i < batchSize; i++, seed++) {
      batch.push(
        createToolResponse({ callId: `c${seed}`, toolName: 'read_file', result: snippet(seed) }),
      );
    }
    service.addAll(batch);
    await service.waitForTokenUpdates();
  }
  return service;
}

const SIZES = [1_000, 10_000, 100_000, 1_000_000];

for (const size of SIZES) {
  const service = await historyOf(size);
  const label = `${service.getTotalTokens().toLocaleString('en-US')} tokens, ${service.length} entries`;
  describe(`history of ${label}`, () => {
    let generation = 0;
    const replaceOne = () =>
      service.applyDensityResult({
        removals: [],
        replacements: new Map([
          [0, createUserMessage(`replacement ${generation++}: ${snippet(generation)}`)],
        ]),
        metadata: EMPTY_DENSITY_METADATA,
      });

    bench('cached: replace one entry + recalculateTotalTokens()', async () => {
      await replaceOne();
    });

    bench('from scratch: tokenize every entry', async () => {
      await countTokensFromScratch(service.getRawHistory());
    });
  });
}
