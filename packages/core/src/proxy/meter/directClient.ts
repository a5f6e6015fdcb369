/**
 * The client as it would have run passed straight through, for the live pass-through meter: its
 * own compactions, at its own threshold, cost a model call (its prompt the history it held), and
 * a compaction Dense made it do early (`budget/clientHistoryBound.ts`) never happened — the
 * history it took away is still held, and priced, until the direct client would have reached its
 * threshold and compacted by itself. Kept per client session (a compaction starts a new
 * conversation; the session header links them), so a client that sends no session header loses
 * the carry at its compaction: the meter then under-states the saving, never over-states it.
 * Pure.
 */
import type { CacheRules } from '../../cache/cacheRules.js';
import { isCacheCold, priceCall } from '../../cache/priceCall.js';
import type { CompactionNote } from '../densify/DensifyResult.js';
import type { PassThroughState } from './passThroughCost.js';

export interface DirectClientState {
  /** Tokens compactions Dense induced took out of the history the direct client would still hold. */
  readonly carriedTokens: number;
  /**
   * Set by a compaction Dense induced: the direct client's prompt then. The next request fixes the
   * carry as that less what the client holds after its compaction (summary, system, tools).
   */
  readonly pendingHeldTokens?: number;
}

export const DIRECT_START: DirectClientState = { carriedTokens: 0 };

/** What the direct client's own compaction call would cost, base-input-token units. */
export function directCompactionCost(input: {
  readonly rules: CacheRules;
  /** Prompt tokens of the history it summarizes. */
  readonly heldTokens: number;
  readonly at: number;
  /** The conversation's previous pass-through request (its prefix is the call's). */
  readonly previous: PassThroughState | undefined;
}): number {
  const { previous } = input;
  const warm = previous !== undefined && !isCacheCold(input.rules, input.at - previous.at);
  const reusable = warm ? Math.min(previous.promptTokens, input.heldTokens) : 0;
  return priceCall(input.rules, {
    promptTokens: input.heldTokens,
    reusablePrefixTokens: reusable,
    gapMs: undefined,
    hasPrevious: reusable > 0,
  }).weightedTokens;
}

/** Bytes a compaction Dense answered took out of the client's history: covered less summary. */
export function replacedBytesOf(note: CompactionNote | undefined): {
  readonly replacedBytes?: number;
} {
  if (note?.coveredBytes === undefined || note.summaryBytes === undefined) return {};
  return { replacedBytes: Math.max(0, note.coveredBytes - note.summaryBytes) };
}

/**
 * `bytes` of the client's body as tokens, at its previous request's ratio of its own prompt tokens
 * to bytes; undefined when that is unknown.
 */
export function clientTokensOf(
  previous: PassThroughState | undefined,
  bytes: number | undefined,
): number | undefined {
  const base = previous?.clientBytes ?? 0;
  const tokens = previous?.clientTokens;
  if (tokens === undefined || bytes === undefined || base <= 0) return undefined;
  return Math.round((tokens * bytes) / base);
}

/**
 * The history the direct client holds at its compaction request: the previous request's prompt
 * and what the client's compaction request holds beyond that request (read by bytes: the client's
 * summarize instruction, and any turn added since). The previous prompt when bytes are unknown.
 */
export function compactionHeldTokens(
  previous: PassThroughState | undefined,
  clientBytes: number | undefined,
): number {
  if (previous === undefined) return 0;
  const now = clientTokensOf(previous, clientBytes) ?? 0;
  return previous.promptTokens + Math.max(0, now - (previous.clientTokens ?? 0));
}

/**
 * After the client's compaction request was answered by Dense: an induced one is carried (the
 * direct client still holds `heldTokens`, its prompt before), one the client made by itself is a
 * model call the direct client pays (`chargeCompaction`).
 */
export function afterAnswered(
  state: DirectClientState,
  input: {
    readonly induced: boolean;
    readonly heldTokens: number;
    /**
     * Tokens the compaction took out of the client's history for good (what the summary covers,
     * less the summary), when known: carried as they are. Unknown: the next request fixes the
     * carry from `heldTokens`, which misses what that request adds.
     */
    readonly replacedTokens?: number;
  },
): { readonly state: DirectClientState; readonly chargeCompaction: boolean } {
  if (!input.induced) return { state: DIRECT_START, chargeCompaction: true };
  if (input.replacedTokens !== undefined) {
    return {
      state: { carriedTokens: state.carriedTokens + input.replacedTokens },
      chargeCompaction: false,
    };
  }
  return {
    state: { carriedTokens: state.carriedTokens, pendingHeldTokens: input.heldTokens },
    chargeCompaction: false,
  };
}

/**
 * Before pricing a request whose client holds `clientTokens`: the direct client holds that plus
 * the carry; once that reaches its threshold it compacts by itself (a call to charge, over about
 * its threshold: `compactedTokens`) and, like the client now, holds only what the client holds.
 */
export function beforePriced(
  state: DirectClientState,
  input: { readonly clientTokens: number; readonly threshold: number | undefined },
): {
  readonly state: DirectClientState;
  /** Prompt tokens of the request as the direct client would send it. */
  readonly promptTokens: number;
  /** Set when the direct client compacts first: the history its compaction call summarizes. */
  readonly compactedTokens?: number;
} {
  const pending = state.pendingHeldTokens;
  const carried =
    pending === undefined ? state.carriedTokens : Math.max(0, pending - input.clientTokens);
  const held = input.clientTokens + carried;
  const { threshold } = input;
  if (carried > 0 && threshold !== undefined && held >= threshold) {
    const compactedTokens = Math.min(held, threshold);
    return { state: DIRECT_START, promptTokens: input.clientTokens, compactedTokens };
  }
  return { state: { carriedTokens: carried }, promptTokens: held };
}
