/**
 * `optimize()` of the high-density strategy as one pure function: runs the enabled passes in order
 * (READ→WRITE, stale `@` inclusions, recency), each on the history as the previous ones left it,
 * and merges their edits into one DensityResult against the raw indices; any reply whose named
 * text those edits took away is put back in the same result.
 */
import type { IContent } from '../../../../services/history/IContent.js';
import type { DensityConfig, DensityResult, DensityResultMetadata } from '../../types.js';
import { passSwitchesOf } from '../../densityPass.js';
import { DensityDraft, type DensityPassResult } from './densityEdits.js';
import type { HistorySlots } from '../toolCallIndex.js';
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
  const counts = { readWrite: 0, dedup: 0, recency: 0 };
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
  const passes = passSwitchesOf(config);
  if (passes.readWrite) {
    counts.readWrite = run((slots) => pruneReadWritePairs(slots, readWriteOptions));
  }
  if (passes.dedup || passes.readWrite) {
    counts.dedup = run((slots) =>
      deduplicateFileInclusions(slots, {
        workspaceRoot: config.workspaceRoot,
        dedupe: passes.dedup,
        ...(config.pointerStyle === undefined ? {} : { pointerStyle: config.pointerStyle }),
        ...(passes.readWrite
          ? { latestWrites: () => latestSuccessfulWrites(slots, readWriteOptions) }
          : {}),
      }),
    );
  }
  if (passes.recency) {
    counts.recency = run((slots) =>
      pruneByRecency(slots, {
        recencyRetention: config.recencyRetention,
        ...(config.pointerStyle === undefined ? {} : { pointerStyle: config.pointerStyle }),
      }),
    );
  }
  // A pass that took away text a reply names puts that reply back in the same edit. A reply names
  // only text above it, and every other rewrite settles its own replies, so only replies after the
  // first edit can stop standing; with no edit there is nothing to check.
  const { removals, replacements } = draft.edits();
  const firstEdited = Math.min(
    removals[0] ?? Infinity,
    replacements.keys().next().value ?? Infinity,
  );
  if (Number.isFinite(firstEdited)) draft.merge(settleRepliesPass(draft.slots, firstEdited));
  const metadata: DensityResultMetadata = counts;
  return { ...draft.edits(), metadata };
}
