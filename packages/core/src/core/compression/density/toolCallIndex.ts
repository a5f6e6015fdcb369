/**
 * Links every tool response to the call it answers, by id and never by adjacency, in one pass
 * over the history. `compress()` builds this once per call.
 */
import type {
  IContent,
  ToolCallBlock,
  ToolResponseBlock,
} from '../../../services/history/IContent.js';

/** Where a block sits: the entry's index in the history and the block's index in the entry. */
export interface BlockSite {
  readonly entryIndex: number;
  readonly blockIndex: number;
}

export interface CallSite extends BlockSite {
  readonly block: ToolCallBlock;
  /** The responses answering this call, in history order (usually one). */
  readonly responses: readonly ResponseSite[];
}

export interface ResponseSite extends BlockSite {
  readonly block: ToolResponseBlock;
  /** The call it answers; `undefined` for an orphan response. */
  readonly call: CallSite | undefined;
}

export interface ToolCallIndex {
  /** Every tool call, in history order. */
  readonly calls: readonly CallSite[];
  /** Every tool response, in history order. */
  readonly responses: readonly ResponseSite[];
}

/** A history in which some slots may already be gone (`undefined`): removed by an earlier pass. */
export type HistorySlots = readonly (IContent | undefined)[];

interface MutableCallSite extends BlockSite {
  readonly block: ToolCallBlock;
  readonly responses: ResponseSite[];
}

/**
 * Pairs each response with the most recent earlier call carrying its `callId` (so an id a
 * provider reuses later still pairs correctly). A response before any such call is an orphan.
 */
export function buildToolCallIndex(history: HistorySlots): ToolCallIndex {
  const calls: MutableCallSite[] = [];
  const responses: ResponseSite[] = [];
  const latestById = new Map<string, MutableCallSite>();
  for (let entryIndex = 0; entryIndex < history.length; entryIndex++) {
    const blocks = history[entryIndex]?.blocks ?? [];
    for (let blockIndex = 0; blockIndex < blocks.length; blockIndex++) {
      const block = blocks[blockIndex];
      if (block?.type === 'tool_call') {
        const site: MutableCallSite = { entryIndex, blockIndex, block, responses: [] };
        calls.push(site);
        latestById.set(block.id, site);
      } else if (block?.type === 'tool_response') {
        const call = latestById.get(block.callId);
        const site: ResponseSite = { entryIndex, blockIndex, block, call };
        responses.push(site);
        call?.responses.push(site);
      }
    }
  }
  return { calls, responses };
}
