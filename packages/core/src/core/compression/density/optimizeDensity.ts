/**
 * `optimize()` of the high-density strategy as one pure function: runs the enabled passes in order
 * (READ→WRITE, stale `@` inclusions, recency), each on the history as the previous ones left it,
 * and merges their edits into one DensityResult against the raw indices; any reply whose named
 * text those edits took away is put back in the same result.
 */
import type { IContent } from '../../../services/history/IContent.js';
import type { DensityConfig, DensityResult, DensityResultMetadata } from '../types.js';
import { DensityDraft, type DensityPassResult } from './densityEdits.js';
import type { HistorySlots } from './toolCallIndex.js';
import { deduplicateFileInclusions } from './inclusionDedup.js';
import { latestSuccessfulWrites, pruneReadWritePairs } from './readWritePruning.js';
import { pruneByRecency } from './recencyPruning.js';
import { settleRepliesPass } from './settleReplies.js';

/**
 * Never mutates `history` and never throws on odd tool parameters. The result holds no index in
 * both removals and replacements, no duplicate removal, only indices in `[0, history.length)`,
 * and metadata counting exactly what each pass pruned.
 */
export function optimizeDensity(
  history: readonly IContent[],
  config: DensityConfig,
): DensityResult {
  const draft = new DensityDraft(history);
  const counts = { readWritePairsPruned: 0, fileDeduplicationsPruned: 0, recencyPruned: 0 };
  const run = (pass: (slots: HistorySlots) => DensityPassResult): number => {
    const result = pass(draft.slots);
    draft.merge(result);
    return result.pruned;
  };
  const readWriteOptions = {
    workspaceRoot: config.workspaceRoot,
    shellFileOps: config.shellFileOps === true,
    ...(config.pointerStyle === undefined ? {} : { pointerStyle: config.pointerStyle }),
  };
  if (config.readWritePruning) {
    counts.readWritePairsPruned = run((slots) => pruneReadWritePairs(slots, readWriteOptions));
  }
  if (config.fileDedupe || config.readWritePruning) {
    counts.fileDeduplicationsPruned = run((slots) =>
      deduplicateFileInclusions(slots, {
        workspaceRoot: config.workspaceRoot,
        dedupe: config.fileDedupe,
        ...(config.pointerStyle === undefined ? {} : { pointerStyle: config.pointerStyle }),
        ...(config.readWritePruning
          ? { latestWrites: latestSuccessfulWrites(slots, readWriteOptions) }
          : {}),
      }),
    );
  }
  if (config.recencyPruning) {
    counts.recencyPruned = run((slots) =>
      pruneByRecency(slots, {
        recencyRetention: config.recencyRetention,
        ...(config.pointerStyle === undefined ? {} : { pointerStyle: config.pointerStyle }),
      }),
    );
  }
  // A pass that took away text a reply names puts that reply back in the same edit.
  draft.merge(settleRepliesPass(draft.slots));
  const metadata: DensityResultMetadata = counts;
  return { ...draft.edits(), metadata };
}
