/**
 * The one rule that links tool responses to tool calls, used by the providers, the compression
 * boundaries, density and the transcript tools. Calls and responses are paired BY POSITION, not
 * by id alone, because servers reuse ids (every call `call_1`; a mock that numbers calls per
 * reply): a response answers the nearest preceding unanswered call carrying its id. Within one
 * entry, calls sharing an id are answered in the order they were made (parallel calls come back
 * in call order). A response for an id whose calls are all answered already is a repeated answer
 * (a transcript that records a result twice): it joins the most recent call with that id, after
 * its answer, so a boundary never separates it from that call. A response with no earlier call
 * carrying its id is an orphan; a call no response answers stays unanswered.
 */
import type { IContent, ToolCallBlock, ToolResponseBlock } from './IContent.js';

/** Where a block sits: the entry's index in the history and the block's index in the entry. */
export interface BlockSite {
  readonly entryIndex: number;
  readonly blockIndex: number;
}

export interface CallSite extends BlockSite {
  readonly block: ToolCallBlock;
  /** The answer first, then any repeated answers; empty when the call is unanswered. */
  readonly responses: readonly ResponseSite[];
}

export interface ResponseSite extends BlockSite {
  readonly block: ToolResponseBlock;
  /** The call it answers; `undefined` for an orphan response. */
  readonly call: CallSite | undefined;
}

export interface ToolCallPairing {
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
 * The pairing rule for a history read one item at a time (importers): register calls as they
 * come, ask which call a response answers. `entry` groups calls made in one reply (answered in
 * call order); a later entry is nearer than an earlier one.
 */
export class ToolCallMatcher<T> {
  /** Per id: entries that still have unanswered calls with it, newest last; FIFO inside one. */
  private readonly pending = new Map<string, { entry: number; calls: T[] }[]>();
  private readonly latest = new Map<string, T>();

  call(id: string, entry: number, item: T): void {
    const entries = this.pending.get(id) ?? [];
    const newest = entries.at(-1);
    if (newest?.entry === entry) newest.calls.push(item);
    else entries.push({ entry, calls: [item] });
    this.pending.set(id, entries);
    this.latest.set(id, item);
  }

  /**
   * The call a response with this id answers: the nearest preceding unanswered one, else (a
   * repeated answer) the most recent call with the id; `undefined` when no call had the id.
   */
  answer(id: string): T | undefined {
    const entries = this.pending.get(id);
    const newest = entries?.at(-1);
    if (entries === undefined || newest === undefined) return this.latest.get(id);
    const call = newest.calls.shift();
    if (newest.calls.length === 0) entries.pop();
    if (entries.length === 0) this.pending.delete(id);
    return call ?? this.latest.get(id);
  }

  /** Whether a call with this id is registered and not yet answered. */
  awaitsAnswer(id: string): boolean {
    return this.pending.has(id);
  }

  /** Whether any call with this id was registered. */
  has(id: string): boolean {
    return this.latest.has(id);
  }

  /** The most recent call registered with this id. */
  latestCall(id: string): T | undefined {
    return this.latest.get(id);
  }
}

/** Pairs every response of `history` with the call it answers, in one pass. Pure. */
export function pairToolCallsByPosition(history: HistorySlots): ToolCallPairing {
  const calls: MutableCallSite[] = [];
  const responses: ResponseSite[] = [];
  const matcher = new ToolCallMatcher<MutableCallSite>();
  for (let entryIndex = 0; entryIndex < history.length; entryIndex++) {
    const blocks = history[entryIndex]?.blocks ?? [];
    for (let blockIndex = 0; blockIndex < blocks.length; blockIndex++) {
      const block = blocks[blockIndex];
      if (block?.type === 'tool_call') {
        const site: MutableCallSite = { entryIndex, blockIndex, block, responses: [] };
        calls.push(site);
        matcher.call(block.id, entryIndex, site);
      } else if (block?.type === 'tool_response') {
        const call = matcher.answer(block.callId);
        const site: ResponseSite = { entryIndex, blockIndex, block, call };
        responses.push(site);
        call?.responses.push(site);
      }
    }
  }
  return { calls, responses };
}
