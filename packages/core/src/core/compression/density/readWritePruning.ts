/**
 * READ→WRITE pair pruning (REQ-HD-005): a file read whose content a later, successful write made
 * stale is removed — the read call block and its response blocks, block by block, so other calls
 * and text in the same entries survive.
 */
import type { IContent } from '../../../services/history/IContent.js';
import {
  callSucceeded,
  fileEffectOf,
  type FileEffect,
  type FileEffectOptions,
} from './callFileEffect.js';
import { addToGroup, withoutBlocks, type DensityPassResult } from './densityEdits.js';
import { resolveToolPath } from './toolParameters.js';
import {
  buildToolCallIndex,
  lastResponseIndex,
  type CallSite,
  type HistorySlots,
  type ToolCallIndex,
} from './toolCallIndex.js';

export interface ReadWritePruningOptions extends FileEffectOptions {
  /** Relative paths resolve against this directory (REQ-HD-005.11). */
  readonly workspaceRoot: string;
  /** An index already built for this same history, so the pass does not build another. */
  readonly index?: ToolCallIndex;
}

/**
 * Removes every stale read: a read call with a response, whose every file has a successful write
 * issued after the read's last response. A write that failed, or has no response yet, changed
 * nothing and makes nothing stale. Calls whose parameters name no file are never touched.
 * `pruned` counts stale read calls (one per call/response pair).
 */
export function pruneReadWritePairs(
  history: HistorySlots,
  options: ReadWritePruningOptions,
): DensityPassResult {
  const index = options.index ?? buildToolCallIndex(history);
  const keyOf = pathKeyer(options.workspaceRoot);
  const effects = index.calls.map((call) => fileEffectOf(call.block, options));
  const latestWrite = latestSuccessfulWrites(index.calls, effects, keyOf);
  const stale = index.calls.filter((call, i) => isStaleRead(call, effects[i], latestWrite, keyOf));
  return { ...removeCalls(history, stale), pruned: stale.length };
}

type PathKeyer = (filePath: string) => string;

/** `resolveToolPath`, memoized for one pass (the same few paths recur all session). */
function pathKeyer(workspaceRoot: string): PathKeyer {
  const memo = new Map<string, string>();
  return (filePath) => {
    let key = memo.get(filePath);
    if (key === undefined) {
      key = resolveToolPath(filePath, workspaceRoot);
      memo.set(filePath, key);
    }
    return key;
  };
}

/** Path key → entry index of the latest call that wrote it and succeeded. */
function latestSuccessfulWrites(
  calls: readonly CallSite[],
  effects: readonly (FileEffect | undefined)[],
  keyOf: PathKeyer,
): Map<string, number> {
  const latest = new Map<string, number>();
  for (const [i, call] of calls.entries()) {
    const effect = effects[i];
    if (effect === undefined || effect.writes.length === 0 || !callSucceeded(call)) continue;
    for (const target of effect.writes) latest.set(keyOf(target), call.entryIndex);
  }
  return latest;
}

function isStaleRead(
  call: CallSite,
  effect: FileEffect | undefined,
  latestWrite: ReadonlyMap<string, number>,
  keyOf: PathKeyer,
): boolean {
  if (effect === undefined || effect.writes.length > 0 || effect.reads.length === 0) return false;
  const readAt = lastResponseIndex(call);
  if (readAt === undefined) return false;
  return effect.reads.every((target) => (latestWrite.get(keyOf(target)) ?? -1) > readAt);
}

/** Removes the given calls and all their responses, block by block. */
function removeCalls(
  history: HistorySlots,
  calls: readonly CallSite[],
): Pick<DensityPassResult, 'removals' | 'replacements'> {
  const groups = new Map<number, Set<number>>();
  for (const call of calls) {
    addToGroup(groups, call.entryIndex, call.blockIndex);
    for (const response of call.responses) {
      addToGroup(groups, response.entryIndex, response.blockIndex);
    }
  }
  const removals = new Set<number>();
  const replacements = new Map<number, IContent>();
  for (const [entryIndex, doomed] of groups) {
    const entry = history[entryIndex];
    if (entry === undefined) continue;
    const next = withoutBlocks(entry, doomed);
    if (next === undefined) removals.add(entryIndex);
    else replacements.set(entryIndex, next);
  }
  return { removals, replacements };
}
