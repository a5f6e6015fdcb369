/** Folds a provider's streamed chunks into the one AI entry the history records. */
import type { ProviderChunk } from '../providers/IProvider.js';
import type { ContentBlock, IContent, UsageStats } from '../services/history/IContent.js';

export interface AssembledReply {
  readonly content: IContent;
  readonly usage?: UsageStats;
}

/** Appends a chunk's blocks, concatenating consecutive text deltas and consecutive thinking deltas. */
export function appendBlocks(blocks: ContentBlock[], incoming: readonly ContentBlock[]): void {
  for (const block of incoming) {
    const last = blocks.at(-1);
    if (block.type === 'text' && last?.type === 'text') {
      blocks[blocks.length - 1] = { type: 'text', text: last.text + block.text };
    } else if (block.type === 'thinking' && last?.type === 'thinking') {
      const signature = block.signature ?? last.signature;
      blocks[blocks.length - 1] = {
        type: 'thinking',
        thought: last.thought + block.thought,
        ...(signature === undefined ? {} : { signature }),
      };
    } else {
      blocks.push(block);
    }
  }
}

/** The AI entry for a completed stream, with usage, model and provider in its metadata. */
export function assembleReply(
  chunks: readonly ProviderChunk[],
  source: { readonly provider: string; readonly model: string; readonly timestamp: number },
): AssembledReply {
  const blocks: ContentBlock[] = [];
  let usage: UsageStats | undefined;
  for (const chunk of chunks) {
    appendBlocks(blocks, chunk.content.blocks);
    usage = chunk.usage ?? usage;
  }
  const metadata = { ...source, ...(usage === undefined ? {} : { usage }) };
  return {
    content: { speaker: 'ai', blocks, metadata },
    ...(usage === undefined ? {} : { usage }),
  };
}
