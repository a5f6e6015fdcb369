/**
 * OpenCode-style pruning: walking back from the newest tool output, the first 40k tokens are
 * protected; older outputs are replaced by a pointer, but only when that frees at least 20k
 * tokens. Tokens are estimated as characters / 4, as OpenCode does; the walk stops at an output
 * already pruned.
 */
import type { IContent } from '../../services/history/IContent.js';
import { PRUNED_POINTER } from '../../core/compression/densityVocabulary.js';
import {
  isCleared,
  outputChars,
  replaceResults,
  resultSitesNewestFirst,
  type ResultSite,
} from './replaceResults.js';

export interface PruneOptions {
  readonly protectTokens: number;
  readonly minimumTokens: number;
}

export const OPENCODE_PRUNE_DEFAULTS: PruneOptions = {
  protectTokens: 40_000,
  minimumTokens: 20_000,
};

export function pruneOldToolOutput(
  history: readonly IContent[],
  options: PruneOptions = OPENCODE_PRUNE_DEFAULTS,
): Map<number, IContent> {
  let seen = 0;
  let prunable = 0;
  const candidates: ResultSite[] = [];
  for (const site of resultSitesNewestFirst(history)) {
    if (isCleared(site.block)) break;
    const estimate = Math.ceil(outputChars(site.block) / 4);
    seen += estimate;
    if (seen <= options.protectTokens) continue;
    if (outputChars(site.block) <= PRUNED_POINTER.length) continue;
    candidates.push(site);
    prunable += estimate;
  }
  return prunable >= options.minimumTokens
    ? replaceResults(history, candidates)
    : new Map<number, IContent>();
}
