/**
 * Tool result recency pruning (REQ-HD-007): per tool name, only the newest results keep their
 * payload; older ones get `PRUNED_POINTER` in place of the result and keep every other field, so
 * the call/response structure stays whole.
 */
import { PRUNED_POINTER } from '../../densityVocabulary.js';
import { isPrunedPointer, prunedPointer, type PointerStyle } from '../../recallPointers.js';
import type { ContentBlock, IContent } from '../../../../services/history/IContent.js';
import { addToGroup, type DensityPassResult } from './densityEdits.js';
import { payloadChars } from '../toolResultText.js';
import { isCompactSummary } from '../compress/toolResponseSummary.js';
import type { HistorySlots } from '../toolCallIndex.js';

export const DEFAULT_RECENCY_RETENTION = 3;

/** About the length of a recall-style pointer: shorter results are not worth replacing. */
const RECALL_POINTER_CHARS = 90;

export interface RecencyPruningOptions {
  /** Results kept per tool name; see `effectiveRetention`. */
  readonly recencyRetention: number;
  /** `recall` names the recall id in the pointer; default `spec` (PRUNED_POINTER). */
  readonly pointerStyle?: PointerStyle;
}

/**
 * The retention actually used: below 1 means 1 (REQ-HD-013.6), fractions round down, NaN means
 * the default (3), and Infinity keeps everything.
 */
export function effectiveRetention(retention: number): number {
  if (Number.isNaN(retention)) return DEFAULT_RECENCY_RETENTION;
  return Math.max(1, Math.floor(retention));
}

/**
 * Walks the history newest to oldest counting results per tool name (`toolName` of the response);
 * past the retention, a result is replaced by the pointer. Results that already are the pointer
 * are neither counted nor touched, so a second run changes nothing; results no longer than the
 * pointer, and compress()'s one-line summaries, are counted but kept. Removed slots are skipped, and an
 * entry already replaced by an earlier pass is edited from that replacement, never the original.
 * `pruned` counts the results replaced.
 */
export function pruneByRecency(
  history: HistorySlots,
  options: RecencyPruningOptions,
): DensityPassResult {
  const keep = effectiveRetention(options.recencyRetention);
  const pointerChars =
    options.pointerStyle === 'recall' ? RECALL_POINTER_CHARS : PRUNED_POINTER.length;
  const seen = new Map<string, number>();
  const groups = new Map<number, Set<number>>();
  let pruned = 0;
  for (let entryIndex = history.length - 1; entryIndex >= 0; entryIndex--) {
    const entry = history[entryIndex];
    if (entry === undefined) continue;
    for (let blockIndex = entry.blocks.length - 1; blockIndex >= 0; blockIndex--) {
      const block = entry.blocks[blockIndex];
      if (block?.type !== 'tool_response' || isPrunedPointer(block.result)) continue;
      const count = (seen.get(block.toolName) ?? 0) + 1;
      seen.set(block.toolName, count);
      if (count <= keep || payloadChars(block.result) <= pointerChars) continue;
      // compress()'s one-line summary already is the compact form, and says more than the pointer.
      if (isCompactSummary(block.result)) continue;
      addToGroup(groups, entryIndex, blockIndex);
      pruned++;
    }
  }
  const replacements = new Map<number, IContent>();
  for (const [entryIndex, doomed] of groups) {
    const entry = history[entryIndex] as IContent;
    const blocks = entry.blocks.map((block, index): ContentBlock =>
      doomed.has(index) && block.type === 'tool_response'
        ? { ...block, result: prunedPointer(block, 'old', options.pointerStyle) }
        : block,
    );
    replacements.set(entryIndex, { ...entry, blocks });
  }
  return { removals: new Set(), replacements, pruned };
}
