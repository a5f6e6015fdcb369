/**
 * What a density result costs the provider's prompt cache: a provider caches the longest unchanged
 * prefix of the prompt, so every entry from the first edited index on is sent again uncached.
 */
import type { DensityResult } from '../core/compression/types.js';

export interface DensityCacheImpact {
  /** Lowest index removed or replaced; `undefined` when the result changes nothing. */
  readonly firstEditedIndex: number | undefined;
  /** Entries (of the history before applying) from the first edit on: the invalidated suffix. */
  readonly invalidatedEntries: number;
}

export function densityCacheImpact(
  result: DensityResult,
  historyLength: number,
): DensityCacheImpact {
  let first = Number.POSITIVE_INFINITY;
  for (const index of result.removals) first = Math.min(first, index);
  for (const index of result.replacements.keys()) first = Math.min(first, index);
  if (first === Number.POSITIVE_INFINITY)
    return { firstEditedIndex: undefined, invalidatedEntries: 0 };
  return { firstEditedIndex: first, invalidatedEntries: historyLength - first };
}
