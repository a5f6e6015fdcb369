/**
 * How many tokens a density result frees, attributed to the pass that made each change, so the
 * CLI's `/context` and the replay benchmark can report what each pass reclaimed.
 */
import type { DensityPassCounts } from '../core/compression/densityPass.js';
import type { DensityResult } from '../core/compression/types.js';
import { isRecencyPointer } from '../core/compression/recallPointers.js';
import type { ContentBlock, IContent } from '../services/history/IContent.js';

export type EstimateTokens = (contents: readonly IContent[]) => Promise<number>;

function blockKey(block: ContentBlock): string | undefined {
  if (block.type === 'tool_call') return `call:${block.id}:${block.name}`;
  if (block.type === 'tool_response') return `response:${block.callId}:${block.toolName}`;
  return undefined;
}

/**
 * Tool blocks of `before` that `after` no longer has (removed by read→write pruning): a block
 * kept as is is matched by identity, a rewritten one by id and tool name, counted, so blocks that
 * share an id (a server reusing ids) are told apart.
 */
function droppedToolBlocks(before: IContent, after: IContent): ContentBlock[] {
  const unchanged = new Set<ContentBlock>(before.blocks);
  const kept = new Map<string, number>();
  for (const block of after.blocks) {
    const key = blockKey(block);
    if (key !== undefined && !unchanged.has(block)) kept.set(key, (kept.get(key) ?? 0) + 1);
  }
  const same = new Set<ContentBlock>(after.blocks);
  return before.blocks.filter((block) => {
    const key = blockKey(block);
    if (key === undefined || same.has(block)) return false;
    const left = kept.get(key) ?? 0;
    if (left > 0) kept.set(key, left - 1);
    return left === 0;
  });
}

/**
 * Attributes the tokens a result frees. Removed entries and removed tool blocks belong to
 * read→write pruning; shrunk human text to inclusion dedup; what remains of a tool entry's saving
 * (results replaced by the pruned pointer) to recency pruning. Call before applying the result.
 */
export async function attributeDensityTokens(
  history: readonly IContent[],
  result: DensityResult,
  estimate: EstimateTokens,
): Promise<DensityPassCounts> {
  let readWrite = 0;
  let dedup = 0;
  let recency = 0;
  for (const index of result.removals) {
    readWrite += await estimate([history[index] as IContent]);
  }
  for (const [index, after] of result.replacements) {
    const before = history[index] as IContent;
    const saved = (await estimate([before])) - (await estimate([after]));
    if (before.speaker === 'human') {
      dedup += saved;
      continue;
    }
    const dropped = droppedToolBlocks(before, after);
    const droppedTokens =
      dropped.length === 0 ? 0 : await estimate([{ speaker: before.speaker, blocks: dropped }]);
    const pointered = after.blocks.some(
      (block) => block.type === 'tool_response' && isRecencyPointer(block.result),
    );
    readWrite += pointered ? droppedTokens : saved;
    if (pointered) recency += saved - droppedTokens;
  }
  return { readWrite, dedup, recency };
}
