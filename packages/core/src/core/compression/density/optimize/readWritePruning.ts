/**
 * READ→WRITE pair pruning (REQ-HD-005): a file read whose content a later, successful write made
 * stale is removed — the read call block and its response blocks, block by block, so other calls
 * and text in the same entries survive.
 */
import type { IContent, ToolCallBlock } from '../../../../services/history/IContent.js';
import {
  fileEffectOf,
  responseFailed,
  type FileEffect,
  type FileEffectOptions,
} from '../callFileEffect.js';
import { addToGroup, withoutBlocks, type DensityPassResult } from './densityEdits.js';
import { resolveToolPath } from '../toolParameters.js';
import { isShellTool } from '../toolResultText.js';
import { shellReadOfCall } from '../shellReadOfCall.js';
import { buildToolCallIndex, type BlockSite, type HistorySlots } from '../toolCallIndex.js';
import { isPrunedPointer, type PointerStyle } from '../../recallPointers.js';
import { stalePointer } from '../../stalePointer.js';

export interface ReadWritePruningOptions extends FileEffectOptions {
  /** Relative paths resolve against this directory (REQ-HD-005.11). */
  readonly workspaceRoot: string;
  /**
   * `recall`: a stale read keeps its call and gets a pointer naming its recall id in
   * place of its result; `spec` or absent: the call and its responses are removed (REQ-HD-005).
   */
  readonly pointerStyle?: PointerStyle;
}

/** A call that reads or writes files, with its responses (paired by position). */
interface FileCall extends BlockSite {
  readonly effect: FileEffect;
  /** A shell command classified as a file operation (its reads count only when it succeeded). */
  readonly shell: boolean;
  readonly responses: BlockSite[];
  /** Entry index of the last response; -1 while unanswered. */
  readonly lastResponse: number;
  /** Some response reported failure (tracked for writes and shell calls only). */
  readonly failed: boolean;
  /** Responses that already are a pruned pointer. */
  readonly pointered: number;
}

/**
 * Removes every stale read: a read call with a response, whose every file has a successful write
 * issued after the read's last response. A write that failed, or has no response yet, changed
 * nothing and makes nothing stale. Calls whose parameters name no file are never touched. With
 * `shellFileOps`, unambiguous shell reads (when they succeeded) and writes count too.
 * `pruned` counts stale read calls (one per call/response pair).
 */
export function pruneReadWritePairs(
  history: HistorySlots,
  options: ReadWritePruningOptions,
): DensityPassResult {
  const calls = fileCalls(history, options);
  const keyOf = pathKeyer(options.workspaceRoot);
  const latestWrite = successfulWriteIndex(calls, keyOf);
  const recall = options.pointerStyle === 'recall';
  const stale = calls.filter(
    (call) =>
      isStaleRead(call, latestWrite, keyOf) &&
      !(recall && call.pointered === call.responses.length),
  );
  const edits = recall ? pointStaleReads(history, stale) : removeCalls(history, stale);
  return { ...edits, pruned: stale.length };
}

/**
 * For each resolved path, the entry index of its latest successful write (a write with a
 * response, none failed). Other passes use it: an `@` inclusion before such a write is stale too.
 */
export function latestSuccessfulWrites(
  history: HistorySlots,
  options: ReadWritePruningOptions,
): ReadonlyMap<string, number> {
  return successfulWriteIndex(fileCalls(history, options), pathKeyer(options.workspaceRoot));
}

function successfulWriteIndex(calls: readonly FileCall[], keyOf: PathKeyer): Map<string, number> {
  const latestWrite = new Map<string, number>();
  for (const call of calls) {
    if (call.effect.writes.length === 0 || call.lastResponse < 0 || call.failed) continue;
    for (const target of call.effect.writes) latestWrite.set(keyOf(target), call.entryIndex);
  }
  return latestWrite;
}

/**
 * One pass: every call with a file effect, and the responses that answer it (paired by position,
 * see `buildToolCallIndex`, so a reused id never merges two calls).
 */
function fileCalls(history: HistorySlots, options: FileEffectOptions): FileCall[] {
  const calls: FileCall[] = [];
  for (const site of buildToolCallIndex(history).calls) {
    const effect = fileEffectOf(site.block, options);
    if (effect === undefined) continue;
    const shell = isShellTool(site.block.name);
    const tracksFailure = shell || effect.writes.length > 0;
    calls.push({
      entryIndex: site.entryIndex,
      blockIndex: site.blockIndex,
      effect,
      shell,
      responses: site.responses.map(({ entryIndex, blockIndex }) => ({ entryIndex, blockIndex })),
      lastResponse: site.responses.at(-1)?.entryIndex ?? -1,
      failed: tracksFailure && site.responses.some((response) => responseFailed(response.block)),
      pointered: site.responses.filter((response) => isPrunedPointer(response.block.result)).length,
    });
  }
  return calls;
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

function isStaleRead(
  call: FileCall,
  latestWrite: ReadonlyMap<string, number>,
  keyOf: PathKeyer,
): boolean {
  const { reads, writes } = call.effect;
  if (writes.length > 0 || reads.length === 0 || call.lastResponse < 0) return false;
  if (call.shell && call.failed) return false;
  return reads.every((target) => (latestWrite.get(keyOf(target)) ?? -1) > call.lastResponse);
}

/** Removes the given calls and all their responses, block by block. */
function removeCalls(
  history: HistorySlots,
  calls: readonly FileCall[],
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

/** The tool call block of `call`, when it is one. */
function callBlockOf(history: HistorySlots, call: FileCall): ToolCallBlock | undefined {
  const block = history[call.entryIndex]?.blocks[call.blockIndex];
  return block?.type === 'tool_call' ? block : undefined;
}

/**
 * Recall mode: each stale read keeps its call; its responses become the stale pointer, which
 * carries what the read declared and named (`stalePointer.ts`).
 */
function pointStaleReads(
  history: HistorySlots,
  calls: readonly FileCall[],
): Pick<DensityPassResult, 'removals' | 'replacements'> {
  const groups = new Map<number, Set<number>>();
  /** Where each stale shell read's output starts in its file, by response block. */
  const firstLines = new Map<object, number | null>();
  for (const call of calls) {
    const read = shellReadOfCall(callBlockOf(history, call));
    for (const { entryIndex, blockIndex } of call.responses) {
      addToGroup(groups, entryIndex, blockIndex);
      const block = history[entryIndex]?.blocks[blockIndex];
      if (read !== undefined && block !== undefined) firstLines.set(block, read.firstLine);
    }
  }
  const replacements = new Map<number, IContent>();
  for (const [entryIndex, doomed] of groups) {
    const entry = history[entryIndex];
    if (entry === undefined) continue;
    const blocks = entry.blocks.map((block, index) =>
      doomed.has(index) && block.type === 'tool_response' && !isPrunedPointer(block.result)
        ? { ...block, result: stalePointer(block, firstLines.get(block)) }
        : block,
    );
    replacements.set(entryIndex, { ...entry, blocks });
  }
  return { removals: new Set(), replacements };
}
