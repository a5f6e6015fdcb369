/**
 * The edits the density passes propose and the merge step that chains them: each pass sees the
 * history as the earlier passes left it, and a later pass can refine a replacement but never
 * bring back a removed entry.
 */
import type { IContent } from '../../../services/history/IContent.js';
import type { HistorySlots } from './toolCallIndex.js';

/** Edits by raw history index. Invariant: no index is both removed and replaced. */
export interface DensityEdits {
  readonly removals: ReadonlySet<number>;
  readonly replacements: ReadonlyMap<number, IContent>;
}

/** One pass's edits and how many things it pruned, in that pass's unit. */
export interface DensityPassResult extends DensityEdits {
  readonly pruned: number;
}

export const NO_EDITS: DensityEdits = { removals: new Set(), replacements: new Map() };

export function noPassEdits(): DensityPassResult {
  return { removals: new Set(), replacements: new Map(), pruned: 0 };
}

/** The history as `edits` leave it, index for index: a removed entry becomes `undefined`. */
export function slotsAfter(history: readonly IContent[], edits: DensityEdits): HistorySlots {
  if (edits.removals.size === 0 && edits.replacements.size === 0) return history;
  return history.map((entry, index) =>
    edits.removals.has(index) ? undefined : (edits.replacements.get(index) ?? entry),
  );
}

/**
 * `base` followed by `next` (computed on `slotsAfter(history, base)`): removals accumulate, a
 * later replacement of an index wins over an earlier one, and a removal drops any replacement of
 * its index. A replacement of an index `base` already removed is ignored: removal wins.
 */
export function mergeDensityEdits(base: DensityEdits, next: DensityEdits): DensityEdits {
  if (next.removals.size === 0 && next.replacements.size === 0) return base;
  const removals = new Set(base.removals);
  for (const index of next.removals) removals.add(index);
  const replacements = new Map(base.replacements);
  for (const [index, entry] of next.replacements) {
    if (!base.removals.has(index)) replacements.set(index, entry);
  }
  for (const index of next.removals) replacements.delete(index);
  return { removals, replacements };
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
