/**
 * Folds a provider stream into the one AI entry it amounts to. Resolves only when the stream ended
 * normally, so a caller that records the result in history after `await collectReply(...)` never
 * records a half-finished reply: an abort or failure rejects and leaves history untouched.
 */
import type { ContentBlock, IContent, UsageStats } from '../services/history/IContent.js';
import type { ProviderChunk } from './IProvider.js';

export interface CollectedReply {
  readonly content: IContent;
  readonly usage: UsageStats | undefined;
}

/**
 * Consecutive text deltas become one text block and consecutive thinking deltas one thinking block
 * (keeping the last signature); tool calls and other blocks keep their order.
 */
export function mergeChunks(chunks: readonly ProviderChunk[]): CollectedReply {
  const blocks: ContentBlock[] = [];
  let usage: UsageStats | undefined;
  for (const chunk of chunks) {
    if (chunk.usage) usage = chunk.usage;
    for (const block of chunk.content.blocks) appendBlock(blocks, block);
  }
  return { content: { speaker: 'ai', blocks }, usage };
}

function appendBlock(blocks: ContentBlock[], block: ContentBlock): void {
  const last = blocks.at(-1);
  if (last?.type === 'text' && block.type === 'text') {
    blocks[blocks.length - 1] = { type: 'text', text: last.text + block.text };
    return;
  }
  if (last?.type === 'thinking' && block.type === 'thinking') {
    const signature = block.signature ?? last.signature;
    blocks[blocks.length - 1] = {
      type: 'thinking',
      thought: last.thought + block.thought,
      ...(signature === undefined ? {} : { signature }),
    };
    return;
  }
  blocks.push(block);
}

export async function collectReply(stream: AsyncIterable<ProviderChunk>): Promise<CollectedReply> {
  const chunks: ProviderChunk[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  return mergeChunks(chunks);
}
