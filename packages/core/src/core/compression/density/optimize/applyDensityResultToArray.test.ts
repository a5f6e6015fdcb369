import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { HistoryService } from '../../../../services/history/HistoryService.js';
import { DensityResultError } from '../../../../services/history/validateDensityResult.js';
import { charEstimateTokenCounter } from '../../../../services/history/TokenCounter.js';
import { human } from '../../../../test-utils/historyBuilders.js';
import { EMPTY_DENSITY_METADATA } from '../../types.js';
import { applyDensityResultToArray } from './applyDensityResultToArray.js';
import { optimizeDensity } from './optimizeDensity.js';
import { densityConfigArb, historyArb } from '../test-utils/densityArbitraries.js';

describe('applyDensityResultToArray', () => {
  it('applies exactly like HistoryService.applyDensityResult', async () => {
    await fc.assert(
      fc.asyncProperty(historyArb, densityConfigArb, async (history, config) => {
        const result = optimizeDensity(history, config);
        const service = new HistoryService({ tokenCounter: charEstimateTokenCounter });
        service.addAll(history);
        await service.applyDensityResult(result);
        expect(applyDensityResultToArray(history, result)).toEqual([...service.getRawHistory()]);
      }),
      { numRuns: 60 },
    );
  });

  it('rejects what HistoryService rejects, and never touches its input', () => {
    const history = Object.freeze([human('a'), human('b')]);
    const bad = [
      { removals: [2], replacements: new Map() },
      { removals: [0, 0], replacements: new Map() },
      { removals: [1], replacements: new Map([[1, human('x')]]) },
    ];
    for (const result of bad) {
      expect(() =>
        applyDensityResultToArray(history, { ...result, metadata: EMPTY_DENSITY_METADATA }),
      ).toThrow(DensityResultError);
    }
    const replaced = human('B');
    expect(
      applyDensityResultToArray(history, {
        removals: [0],
        replacements: new Map([[1, replaced]]),
        metadata: EMPTY_DENSITY_METADATA,
      }),
    ).toEqual([replaced]);
  });
});
