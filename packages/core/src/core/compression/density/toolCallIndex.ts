/**
 * Links every tool response to the call it answers, in one pass over the history. `compress()`
 * builds this once per call. The pairing rule (by position: a response answers the nearest
 * preceding unanswered call with its id) lives in services/history/toolCallPairing.ts, shared
 * with the providers and the compression boundaries.
 */
import {
  pairToolCallsByPosition,
  type HistorySlots,
  type ToolCallPairing,
} from '../../../services/history/toolCallPairing.js';

export type {
  BlockSite,
  CallSite,
  HistorySlots,
  ResponseSite,
} from '../../../services/history/toolCallPairing.js';

export type ToolCallIndex = ToolCallPairing;

/** Pairs each response with the call it answers (see `pairToolCallsByPosition`). */
export function buildToolCallIndex(history: HistorySlots): ToolCallIndex {
  return pairToolCallsByPosition(history);
}
