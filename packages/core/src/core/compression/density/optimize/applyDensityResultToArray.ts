/**
 * The pure twin of `HistoryService.applyDensityResult`: the same validation and the same
 * semantics (replacements first, then removals), returning a new array. For tests, properties and
 * offline tools that replay density edits without a history service.
 */
import type { IContent } from '../../../../services/history/IContent.js';
import { validateDensityResult } from '../../../../services/history/validateDensityResult.js';
import type { DensityResult } from '../../types.js';

/** Throws `DensityResultError` (and returns nothing) when the result is invalid for `history`. */
export function applyDensityResultToArray(
  history: readonly IContent[],
  result: DensityResult,
): IContent[] {
  validateDensityResult(result, history.length);
  const removed = new Set(result.removals);
  const next: IContent[] = [];
  history.forEach((entry, index) => {
    if (!removed.has(index)) next.push(result.replacements.get(index) ?? entry);
  });
  return next;
}
