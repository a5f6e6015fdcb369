/**
 * Anthropic API context editing (`clear_tool_uses`) with its defaults: once the input passes the
 * trigger (100k tokens), every tool result but the newest three is cleared.
 */
import type { IContent } from '../../services/history/IContent.js';
import { isReplaceable, replaceResults, resultSitesNewestFirst } from './replaceResults.js';

export interface KeepRecentOptions {
  readonly triggerTokens: number;
  readonly keep: number;
}

export const ANTHROPIC_CLEAR_DEFAULTS: KeepRecentOptions = { triggerTokens: 100_000, keep: 3 };

/** Replacements clearing all but the newest `keep` results when `contextTokens` > trigger. */
export function keepRecentToolResults(
  history: readonly IContent[],
  contextTokens: number,
  options: KeepRecentOptions = ANTHROPIC_CLEAR_DEFAULTS,
): Map<number, IContent> {
  if (contextTokens <= options.triggerTokens) return new Map();
  const older = resultSitesNewestFirst(history)
    .slice(options.keep)
    .filter((site) => isReplaceable(site.block));
  return replaceResults(history, older);
}
