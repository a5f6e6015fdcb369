/** The one edit most baselines make: put a pointer in place of chosen tool results. */
import type { ContentBlock, IContent } from '../../services/history/IContent.js';
import { PRUNED_POINTER } from '../../core/compression/densityVocabulary.js';
import { payloadChars } from '../../core/compression/density/toolResultText.js';

/** A tool result's place: entry index and block index. */
export interface ResultSite {
  readonly entryIndex: number;
  readonly blockIndex: number;
}

type ResponseBlock = Extract<ContentBlock, { type: 'tool_response' }>;

/**
 * Characters of a response's output: its result plus its `error` text. Failed calls keep their
 * output in `error` (a failing test run, a traceback), and the model sees both.
 */
export function outputChars(block: ResponseBlock): number {
  return payloadChars(block.result) + (block.error?.length ?? 0);
}

/** Whether a response was already replaced by `pointer` (in its result or, if it failed, its error). */
export function isCleared(block: ResponseBlock, pointer = PRUNED_POINTER): boolean {
  return block.result === pointer || block.error === pointer;
}

/** Whether a result is worth replacing: not already a pointer, and its output longer than one. */
export function isReplaceable(block: ContentBlock, pointer = PRUNED_POINTER): boolean {
  return (
    block.type === 'tool_response' &&
    !isCleared(block, pointer) &&
    outputChars(block) > pointer.length
  );
}

/**
 * The response with its output replaced by `pointer`: a failed call's `error` becomes the pointer
 * (it still reads as a failure) and its result is emptied; every other field is kept.
 */
export function clearedResponse(block: ResponseBlock, pointer = PRUNED_POINTER): ResponseBlock {
  return block.error === undefined
    ? { ...block, result: pointer }
    : { ...block, result: '', error: pointer };
}

/** New entries with the results at `sites` replaced by `pointer` (every other field kept). */
export function replaceResults(
  history: readonly IContent[],
  sites: readonly ResultSite[],
  pointer = PRUNED_POINTER,
): Map<number, IContent> {
  const byEntry = new Map<number, Set<number>>();
  for (const { entryIndex, blockIndex } of sites) {
    const set = byEntry.get(entryIndex) ?? new Set<number>();
    set.add(blockIndex);
    byEntry.set(entryIndex, set);
  }
  const replacements = new Map<number, IContent>();
  for (const [entryIndex, blocks] of byEntry) {
    const entry = history[entryIndex];
    if (entry === undefined) continue;
    replacements.set(entryIndex, {
      ...entry,
      blocks: entry.blocks.map((block, index) =>
        blocks.has(index) && block.type === 'tool_response'
          ? clearedResponse(block, pointer)
          : block,
      ),
    });
  }
  return replacements;
}

/** Every tool result of the history, newest first. */
export function resultSitesNewestFirst(
  history: readonly IContent[],
): (ResultSite & { readonly block: ResponseBlock })[] {
  const sites: (ResultSite & { block: ResponseBlock })[] = [];
  for (let entryIndex = history.length - 1; entryIndex >= 0; entryIndex--) {
    const blocks = history[entryIndex]?.blocks ?? [];
    for (let blockIndex = blocks.length - 1; blockIndex >= 0; blockIndex--) {
      const block = blocks[blockIndex];
      if (block?.type === 'tool_response') sites.push({ entryIndex, blockIndex, block });
    }
  }
  return sites;
}
