/**
 * Applies everything high-density's `optimize()` would prune now, with the default passes
 * (READ→WRITE with shell file operations, `@` dedup, recall pointers, no recency): what a
 * property checks a reply's named copy survives.
 */
import type { IContent } from '../../../../services/history/IContent.js';
import { HighDensityStrategy } from '../../HighDensityStrategy.js';
import type { DensityConfig } from '../../types.js';
import { applyDensityResultToArray } from '../optimize/applyDensityResultToArray.js';

const strategy = new HighDensityStrategy();

export function pruneEverything(history: readonly IContent[], workspaceRoot = '/ws'): IContent[] {
  const config: DensityConfig = {
    readWritePruning: true,
    fileDedupe: true,
    recencyPruning: false,
    recencyRetention: 3,
    workspaceRoot,
    shellFileOps: true,
    pointerStyle: 'recall',
  };
  return [...applyDensityResultToArray(history, strategy.optimize(history, config))];
}
