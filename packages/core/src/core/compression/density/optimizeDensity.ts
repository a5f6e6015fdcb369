/**
 * `optimize()` of the high-density strategy as one pure function: runs the enabled passes in order
 * (READ→WRITE, inclusion dedup, recency), each on the history as the previous ones left it, and
 * merges their edits into one DensityResult against the raw indices.
 */
import type { IContent } from '../../../services/history/IContent.js';
import type { DensityConfig, DensityResult, DensityResultMetadata } from '../types.js';
import {
  mergeDensityEdits,
  NO_EDITS,
  slotsAfter,
  type DensityEdits,
  type DensityPassResult,
} from './densityEdits.js';
import { deduplicateFileInclusions } from './inclusionDedup.js';
import { pruneReadWritePairs } from './readWritePruning.js';
import { pruneByRecency } from './recencyPruning.js';

/**
 * The density config plus switches that go beyond the spec. `shellFileOps` (default off) lets
 * READ→WRITE treat unambiguous shell reads and writes (`cat f`, `sed -i … f`) as reads and writes.
 */
export type DensityOptions = DensityConfig & { readonly shellFileOps?: boolean };

/**
 * Never mutates `history` and never throws on odd tool parameters. The result holds no index in
 * both removals and replacements, no duplicate removal, only indices in `[0, history.length)`,
 * and metadata counting exactly what each pass pruned.
 */
export function optimizeDensity(
  history: readonly IContent[],
  config: DensityOptions,
): DensityResult {
  let edits: DensityEdits = NO_EDITS;
  const counts = { readWritePairsPruned: 0, fileDeduplicationsPruned: 0, recencyPruned: 0 };
  const run = (pass: (slots: readonly (IContent | undefined)[]) => DensityPassResult): number => {
    const result = pass(slotsAfter(history, edits));
    edits = mergeDensityEdits(edits, result);
    return result.pruned;
  };
  if (config.readWritePruning) {
    counts.readWritePairsPruned = run((slots) =>
      pruneReadWritePairs(slots, {
        workspaceRoot: config.workspaceRoot,
        shellFileOps: config.shellFileOps === true,
      }),
    );
  }
  if (config.fileDedupe) {
    counts.fileDeduplicationsPruned = run((slots) =>
      deduplicateFileInclusions(slots, { workspaceRoot: config.workspaceRoot }),
    );
  }
  if (config.recencyPruning) {
    counts.recencyPruned = run((slots) =>
      pruneByRecency(slots, { recencyRetention: config.recencyRetention }),
    );
  }
  return toDensityResult(edits, counts);
}

function toDensityResult(edits: DensityEdits, metadata: DensityResultMetadata): DensityResult {
  return {
    removals: [...edits.removals].sort((a, b) => a - b),
    replacements: new Map([...edits.replacements].sort(([a], [b]) => a - b)),
    metadata,
  };
}
