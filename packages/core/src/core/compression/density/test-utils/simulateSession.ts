/**
 * Replays a history turn by turn the way the orchestrator runs density: before each request (after
 * every human or tool entry) it optimizes and applies the result. Reports how often and how deep
 * the prefix was rewritten and what that does to prompt-cache-weighted input.
 */
import type { IContent } from '../../../../services/history/IContent.js';
import type { DensityConfig } from '../../types.js';
import { applyDensityResultToArray } from '../optimize/applyDensityResultToArray.js';
import { densityCacheImpact } from '../../../../scheduler/cacheImpact.js';
import { optimizeDensity } from '../optimize/optimizeDensity.js';
import { historyBytes } from './syntheticHistory.js';

export interface SessionStats {
  readonly requests: number;
  readonly toolCalls: number;
  /** Requests whose history density rewrote (an edit before the end). */
  readonly rewrites: number;
  /** Mean share of the history's characters after the first edit, over rewriting requests. */
  readonly meanInvalidatedShare: number;
  /** Σ characters sent over all requests, without and with density. */
  readonly inputChars: { readonly none: number; readonly density: number };
  /**
   * Σ characters weighted by a prompt cache: the unchanged prefix since the previous request at
   * 0.1×, the rest at 1.25× (published cache-read / cache-write multipliers).
   */
  readonly cacheWeighted: { readonly none: number; readonly density: number };
}

const chars = (entries: readonly IContent[]) => historyBytes(entries);

export function simulateSession(source: readonly IContent[], config: DensityConfig): SessionStats {
  let live: IContent[] = [];
  let requests = 0;
  let toolCalls = 0;
  let rewrites = 0;
  let invalidatedShare = 0;
  const input = { none: 0, density: 0 };
  const weighted = { none: 0, density: 0 };
  let previousNone = 0;
  let previousDensity = 0;
  for (let i = 0; i < source.length; i++) {
    const entry = source[i] as IContent;
    live.push(entry);
    toolCalls += entry.blocks.filter((b) => b.type === 'tool_call').length;
    if (entry.speaker === 'ai') continue;
    requests++;
    const result = optimizeDensity(live, config);
    const impact = densityCacheImpact(result, live.length);
    let unchangedDensity = previousDensity;
    if (impact.firstEditedIndex !== undefined) {
      rewrites++;
      const kept = chars(live.slice(0, impact.firstEditedIndex));
      invalidatedShare += 1 - kept / Math.max(1, chars(live));
      unchangedDensity = Math.min(previousDensity, kept);
      live = applyDensityResultToArray(live, result);
    }
    const none = chars(source.slice(0, i + 1));
    const density = chars(live);
    input.none += none;
    input.density += density;
    weighted.none += 0.1 * previousNone + 1.25 * (none - previousNone);
    weighted.density += 0.1 * unchangedDensity + 1.25 * (density - unchangedDensity);
    previousNone = none;
    previousDensity = density;
  }
  return {
    requests,
    toolCalls,
    rewrites,
    meanInvalidatedShare: rewrites === 0 ? 0 : invalidatedShare / rewrites,
    inputChars: input,
    cacheWeighted: weighted,
  };
}
