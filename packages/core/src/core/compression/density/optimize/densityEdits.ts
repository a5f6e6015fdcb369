/**
 * The edits the density passes propose and the merge step that chains them: each pass sees the
 * history as the earlier passes left it, and a later pass can refine a replacement but never
 * bring back a removed entry.
 */
import type { IContent } from '../../../../services/history/IContent.js';
import type { HistorySlots } from '../toolCallIndex.js';

/** Edits by raw history index. Invariant: no index is both removed and replaced. */
export interface DensityEdits {
  readonly removals: ReadonlySet<number>;
  readonly replacements: ReadonlyMap<number, IContent>;
}

/** One pass's edits and how many things it pruned, in that pass's unit. */
export interface DensityPassResult extends DensityEdits {
  readonly pruned: number;
}

/**
 * The merge step. Starts as the untouched history; `merge` folds in one pass's edits (computed on
 * `slots`, the history as the earlier passes left it): removals accumulate and drop any
 * replacement of their index, a later replacement of an index wins over an earlier one, and a
 * replacement of an index already removed is ignored (removal wins). Costs O(edits) per merge;
 * the draft is private to one `optimize()` call.
 */
export class DensityDraft {
  private readonly current: (IContent | undefined)[];
  private readonly removed = new Set<number>();
  private readonly replaced = new Map<number, IContent>();

  constructor(history: readonly IContent[]) {
    this.current = [...history];
  }

  /** Index for index: the entry as edited so far, `undefined` where removed. */
  get slots(): HistorySlots {
    return this.current;
  }

  merge(edits: DensityEdits): void {
    for (const index of edits.removals) {
      this.removed.add(index);
      this.replaced.delete(index);
      this.current[index] = undefined;
    }
    for (const [index, entry] of edits.replacements) {
      if (this.removed.has(index)) continue;
      this.replaced.set(index, entry);
      this.current[index] = entry;
    }
  }

  /** The accumulated edits, removals ascending and replacements by ascending index. */
  edits(): { readonly removals: number[]; readonly replacements: Map<number, IContent> } {
    return {
      removals: [...this.removed].sort((a, b) => a - b),
      replacements: new Map([...this.replaced].sort(([a], [b]) => a - b)),
    };
  }
}

/** An entry with nothing left that a model would see. */
function isHollow(entry: IContent): boolean {
  return entry.blocks.every((block) => block.type === 'text' && block.text.trim() === '');
}

/**
 * `entry` without the blocks at `doomed`: `undefined` when nothing visible would remain (the
 * entry should be removed), otherwise a new entry that keeps every other block and the metadata.
 */
export function withoutBlocks(entry: IContent, doomed: ReadonlySet<number>): IContent | undefined {
  const blocks = entry.blocks.filter((_, index) => !doomed.has(index));
  const next: IContent = { ...entry, blocks };
  return isHollow(next) ? undefined : next;
}

/** Records block `blockIndex` of entry `entryIndex` in a per-entry group. */
export function addToGroup(
  groups: Map<number, Set<number>>,
  entryIndex: number,
  blockIndex: number,
): void {
  const group = groups.get(entryIndex);
  if (group) group.add(blockIndex);
  else groups.set(entryIndex, new Set([blockIndex]));
}
