/**
 * Pending density edits as a batch that can be cut: what each edited entry saves,
 * where the batch may be split without separating a tool call from its response, and the part of
 * a result at and after a cut.
 */
import type { ContentBlock, IContent } from '../services/history/IContent.js';
import { PRUNED_POINTER } from '../core/compression/densityVocabulary.js';
import type { DensityResult, DensityResultMetadata } from '../core/compression/types.js';
import type { BatchCut } from './densitySchedule.js';

export type EstimateTokens = (contents: readonly IContent[]) => Promise<number>;

/** Tokens of one entry, counted already when possible. */
export type TokensOf = (content: IContent) => Promise<number>;

function toolKey(block: ContentBlock): string | undefined {
  if (block.type === 'tool_call') return block.id;
  if (block.type === 'tool_response') return block.callId;
  return undefined;
}

/** Call ids whose call or response block the edit at this index takes out of the history. */
function touchedCallIds(before: IContent, after: IContent | undefined): string[] {
  const kept = new Set<string>();
  for (const block of after?.blocks ?? []) {
    const key = toolKey(block);
    if (key !== undefined) kept.add(key);
  }
  const touched: string[] = [];
  for (const block of before.blocks) {
    const key = toolKey(block);
    if (key !== undefined && !kept.has(key)) touched.push(key);
  }
  return touched;
}

/**
 * What replacing an entry saves, by the original entry (immutable): a pending edit is found again
 * by every optimize() as a new replacement object, which would be tokenized afresh every turn.
 * Recomputed when the replacement's block count changes (a later pass refined it).
 */
const REPLACEMENT_SAVINGS = new WeakMap<
  IContent,
  { readonly blocks: number; readonly saved: number }
>();

/** Edited indices, ascending, each with what it saves. */
export async function editSavings(
  history: readonly IContent[],
  result: DensityResult,
  tokensOf: TokensOf,
): Promise<Map<number, number>> {
  const savings = new Map<number, number>();
  for (const index of result.removals) savings.set(index, await tokensOf(history[index]!));
  for (const [index, after] of result.replacements) {
    const before = history[index]!;
    const known = REPLACEMENT_SAVINGS.get(before);
    if (known?.blocks === after.blocks.length) {
      savings.set(index, known.saved);
      continue;
    }
    const saved = (await tokensOf(before)) - (await tokensOf(after));
    REPLACEMENT_SAVINGS.set(before, { blocks: after.blocks.length, saved });
    savings.set(index, saved);
  }
  return new Map([...savings].sort((a, b) => a[0] - b[0]));
}

/**
 * The places the batch can be cut, lowest first (the first is the whole batch). A cut never falls
 * between two edits that take out blocks of the same call id (a call and its response), so any
 * suffix applied alone leaves every call with its responses. `sentTokens(i)`: tokens of the
 * previous call's prompt an edit at `i` invalidates; `anchoredTokens(i)`: the same once a cache
 * anchor sits right before `i`.
 */
export function batchCuts(
  history: readonly IContent[],
  result: DensityResult,
  savings: ReadonlyMap<number, number>,
  sentTokens: (from: number) => number,
  anchoredTokens: (from: number) => number = sentTokens,
): BatchCut[] {
  const span = new Map<string, { lo: number; hi: number }>();
  for (const index of savings.keys()) {
    for (const id of touchedCallIds(history[index]!, result.replacements.get(index))) {
      const known = span.get(id);
      span.set(
        id,
        known ? { lo: known.lo, hi: Math.max(known.hi, index) } : { lo: index, hi: index },
      );
    }
  }
  const indices = [...savings.keys()];
  const position = new Map(indices.map((index, k) => [index, k]));
  // unsafe[k] > 0: some call id is taken out both before and at/after indices[k].
  const unsafe: number[] = new Array<number>(indices.length + 1).fill(0);
  for (const { lo, hi } of span.values()) {
    const from = position.get(lo)! + 1;
    const to = position.get(hi)! + 1;
    unsafe[from] = unsafe[from]! + 1;
    unsafe[to] = unsafe[to]! - 1;
  }
  const suffix: number[] = new Array<number>(indices.length + 1).fill(0);
  for (let k = indices.length - 1; k >= 0; k--)
    suffix[k] = suffix[k + 1]! + savings.get(indices[k]!)!;
  const cuts: BatchCut[] = [];
  let open = 0;
  indices.forEach((index, k) => {
    open += unsafe[k]!;
    if (k > 0 && open > 0) return;
    const invalidatedTokens = sentTokens(index);
    const anchored = Math.min(invalidatedTokens, anchoredTokens(index));
    cuts.push({
      index,
      removedTokens: suffix[k]!,
      invalidatedTokens,
      ...(anchored < invalidatedTokens ? { anchoredInvalidatedTokens: anchored } : {}),
    });
  });
  return cuts;
}

function countWhere<T>(items: Iterable<T>, test: (item: T) => boolean): number {
  let n = 0;
  for (const item of items) if (test(item)) n++;
  return n;
}

/**
 * The edits of `result` at index `from` and after. The metadata of a part is recounted from its
 * edits (read calls taken out, human entries cut, results newly replaced by the pointer), so a
 * part's dedup count is per entry rather than per span.
 */
export function densityResultFrom(
  history: readonly IContent[],
  result: DensityResult,
  from: number,
): DensityResult {
  const removals = result.removals.filter((index) => index >= from);
  const replacements = new Map([...result.replacements].filter(([index]) => index >= from));
  if (removals.length === result.removals.length && replacements.size === result.replacements.size)
    return result;
  const calls = (before: IContent, after: IContent | undefined) => {
    const ids = new Set(touchedCallIds(before, after));
    return countWhere(before.blocks, (b) => b.type === 'tool_call' && ids.has(b.id));
  };
  let readWrite = 0;
  for (const index of removals) readWrite += calls(history[index]!, undefined);
  for (const [index, after] of replacements) readWrite += calls(history[index]!, after);
  const metadata: DensityResultMetadata = {
    readWrite,
    dedup: countWhere(replacements.keys(), (index) => history[index]!.speaker === 'human'),
    recency: countWhere(replacements, ([index, after]) => {
      const before = history[index]!;
      return after.blocks.some(
        (b, i) =>
          b.type === 'tool_response' &&
          b.result === PRUNED_POINTER &&
          (before.blocks[i] as { result?: unknown } | undefined)?.result !== PRUNED_POINTER,
      );
    }),
  };
  return { removals, replacements, metadata };
}
