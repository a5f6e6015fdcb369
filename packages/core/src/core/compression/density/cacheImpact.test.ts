import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { human, readFile, replaceInFile } from '../../../test-utils/historyBuilders.js';
import { EMPTY_DENSITY_METADATA, type DensityConfig } from '../types.js';
import { applyDensityResultToArray } from './optimize/applyDensityResultToArray.js';
import { densityCacheImpact } from '../../../scheduler/cacheImpact.js';
import { optimizeDensity } from './optimize/optimizeDensity.js';
import {
  buildHistory,
  historyArb,
  quietOpArb,
  TEST_ROOT,
} from './test-utils/densityArbitraries.js';
import { simulateSession } from './test-utils/simulateSession.js';

const config: DensityConfig = {
  readWritePruning: true,
  fileDedupe: true,
  recencyPruning: false,
  recencyRetention: 3,
  workspaceRoot: TEST_ROOT,
};

describe('density and the prompt cache', () => {
  it('reports the first edited index and the invalidated suffix', () => {
    const none = { removals: [], replacements: new Map(), metadata: EMPTY_DENSITY_METADATA };
    expect(densityCacheImpact(none, 10)).toEqual({
      firstEditedIndex: undefined,
      invalidatedEntries: 0,
    });
    const some = {
      removals: [7, 4],
      replacements: new Map([[5, human('x')]]),
      metadata: EMPTY_DENSITY_METADATA,
    };
    expect(densityCacheImpact(some, 10)).toEqual({ firstEditedIndex: 4, invalidatedEntries: 6 });
  });

  it('prior-art A17: with recency off, only a write or a newer inclusion can rewrite the prefix', () => {
    fc.assert(
      fc.property(historyArb, fc.array(quietOpArb, { maxLength: 8 }), (history, quiet) => {
        const settled = applyDensityResultToArray(history, optimizeDensity(history, config));
        const grown = [...settled, ...buildHistory(quiet, 'q')];
        const result = optimizeDensity(grown, config);
        expect(densityCacheImpact(result, grown.length).firstEditedIndex).toBeUndefined();
      }),
      { numRuns: 200 },
    );
  });

  it('prior-art A17: the session replay counts one rewrite per stale-making write', () => {
    const history = [
      human('go'),
      ...readFile('r1', 'a.ts', 'A'.repeat(400)),
      ...readFile('r2', 'b.ts', 'B'.repeat(400)),
      ...replaceInFile('w1', 'a.ts'),
      ...replaceInFile('w2', 'c.ts'),
      ...replaceInFile('w3', 'b.ts'),
    ];
    const stats = simulateSession(history, config);
    expect(stats.requests).toBe(6);
    expect(stats.rewrites).toBe(2);
    expect(stats.inputChars.density).toBeLessThan(stats.inputChars.none);
  });
});
