/**
 * Room `decide/`: schedule, pointers, replies, conversation state; imports budget/ and below.
 *
 * When the proxy sends new density edits: the CLI's decision (`decideDensityApplication`, the
 * scheduler's) on the wire history. The candidates are cut by message (a pointer replaces a
 * result's content only, so any message boundary is a safe cut); each cut is priced by the one
 * prefix model (`cachePrefix`) with the breakpoints the client sent, the real time since the
 * previous request decides whether the cache is cold, and a batch may cost up front at most the
 * conversation's risk budget — a pressure batch too, since the proxy cannot compress (its client
 * compacts by itself).
 */
import type { CacheRules } from '../../cache/cacheRules.js';
import { readTokensAt } from '../../cache/cachePrefix.js';
import {
  DENSITY_SCHEDULE_REASONS,
  decideDensityApplication,
  type BatchCut,
} from '../../scheduler/densitySchedule.js';
import { charTokens, type WireCache } from './wireCache.js';
import type { ResultSite } from '../wire/wireHistory.js';

export const SCHEDULE_REASONS = ['none', ...DENSITY_SCHEDULE_REASONS] as const;
export type ScheduleReason = (typeof SCHEDULE_REASONS)[number];

export interface ScheduleInput {
  /** Prunable sites not sent yet. */
  readonly candidates: readonly ResultSite[];
  readonly messageCount: number;
  /** Characters of the whole request (tokens are estimated as chars / 4). */
  readonly totalChars: number;
  /** The request at the block level and what the provider holds (`wireCache`). */
  readonly cache: WireCache;
  readonly gapMs: number | undefined;
  readonly hasPrevious: boolean;
  readonly rules: CacheRules;
  /** Estimated prompt tokens from which the context is under pressure. */
  readonly pressureTokens: number;
  /** The payback horizon in requests (`compression.density.cachePaybackCalls`). */
  readonly paybackCalls: number;
  /** The most a batch may cost up front (base-input-token units); undefined: no cap. */
  readonly riskBudget: number | undefined;
  /**
   * Characters the pointer written at a site takes in the request (its JSON value; pointers carry
   * the read's specifics, so their length varies). Undefined: 0, the whole span counts as removed.
   */
  readonly pointerChars?: (site: ResultSite) => number;
}

export interface ScheduleDecision {
  readonly apply: readonly ResultSite[];
  readonly reason: ScheduleReason;
  /** Estimated tokens the applied sites remove (0 when none). */
  readonly removedTokens: number;
  /** Tokens of the previous prompts' cache the applied sites lose (0 when none). */
  readonly invalidatedTokens: number;
}

/** Where the candidates can be cut (one per edited message, lowest first), priced. */
export function wireCuts(input: ScheduleInput): BatchCut[] {
  const { rules, cache } = input;
  const newestBlock = cache.blocksBeforeMessage[input.messageCount - 1] ?? cache.layout.blocks;
  // Per edited message: its first edited block and the characters its candidates take out.
  const edited = new Map<number, { firstBlock: number; chars: number }>();
  for (const site of input.candidates) {
    const message = edited.get(site.messageIndex);
    const chars = Math.max(0, site.end - site.start - (input.pointerChars?.(site) ?? 0));
    if (message === undefined) {
      edited.set(site.messageIndex, { firstBlock: site.blockIndex, chars });
    } else {
      message.firstBlock = Math.min(message.firstBlock, site.blockIndex);
      message.chars += chars;
    }
  }
  const messages = [...edited.keys()].sort((a, b) => a - b);
  const editBlocks = messages.map((message) =>
    Math.min(
      (cache.blocksBeforeMessage[message] ?? 0) + (edited.get(message)?.firstBlock ?? 0),
      newestBlock,
    ),
  );
  const [unedited = 0, ...reads] = readTokensAt({ rules, cached: cache.held, next: cache.layout }, [
    newestBlock,
    ...editBlocks,
  ]);
  // A cut at a message removes its candidates and every later one's.
  let fromHere = 0;
  const removedChars = messages
    .map((message) => (fromHere += edited.get(message)?.chars ?? 0))
    .map((_, i, sums) => (sums.at(-1) ?? 0) - (sums[i - 1] ?? 0));
  return messages.map((message, i) => ({
    index: message,
    removedTokens: charTokens(removedChars[i] ?? 0),
    invalidatedTokens: Math.max(0, unedited - (reads[i] ?? 0)),
  }));
}

export function scheduleEdits(input: ScheduleInput): ScheduleDecision {
  if (input.candidates.length === 0) {
    return { apply: [], reason: 'none', removedTokens: 0, invalidatedTokens: 0 };
  }
  const cuts = wireCuts(input);
  const decision = decideDensityApplication({
    rules: input.rules,
    cuts,
    msSinceLastSend: input.hasPrevious ? (input.gapMs ?? 0) : undefined,
    paybackHorizon: input.paybackCalls,
    underPressure: charTokens(input.totalChars) >= input.pressureTokens,
    ...(input.riskBudget === undefined ? {} : { riskBudget: input.riskBudget }),
    pressureWithinBudget: true,
  });
  const cut = cuts.find((c) => c.index === decision.applyFrom);
  if (cut === undefined) {
    return { apply: [], reason: decision.reason, removedTokens: 0, invalidatedTokens: 0 };
  }
  return {
    apply: input.candidates.filter((site) => site.messageIndex >= cut.index),
    reason: decision.reason,
    removedTokens: cut.removedTokens,
    invalidatedTokens: cut.invalidatedTokens,
  };
}
