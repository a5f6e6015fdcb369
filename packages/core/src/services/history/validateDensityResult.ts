/** The invariants a DensityResult must hold before HistoryService applies it. */
import { DenseError } from '../../utils/errors.js';
import type { DensityResult } from '../../core/compression/types.js';

export type DensityResultErrorCode =
  'DENSITY_INDEX_CONFLICT' | 'DENSITY_INDEX_OUT_OF_BOUNDS' | 'DENSITY_DUPLICATE_REMOVAL';

/** A density result that would corrupt the history; nothing was applied. */
export class DensityResultError extends DenseError {
  constructor(
    readonly code: DensityResultErrorCode,
    message: string,
  ) {
    super(message);
  }
}

function assertIndex(index: number, length: number, kind: 'removal' | 'replacement'): void {
  if (!Number.isInteger(index) || index < 0 || index >= length) {
    throw new DensityResultError(
      'DENSITY_INDEX_OUT_OF_BOUNDS',
      `Density result ${kind} index ${index} is not an integer in [0, ${length}); nothing was applied.`,
    );
  }
}

/** Throws `DensityResultError` unless every index is valid, distinct and unambiguous. */
export function validateDensityResult(result: DensityResult, historyLength: number): void {
  const removals = new Set<number>();
  for (const index of result.removals) {
    assertIndex(index, historyLength, 'removal');
    if (removals.has(index)) {
      throw new DensityResultError(
        'DENSITY_DUPLICATE_REMOVAL',
        `Density result removes index ${index} twice; nothing was applied.`,
      );
    }
    removals.add(index);
  }
  for (const index of result.replacements.keys()) {
    assertIndex(index, historyLength, 'replacement');
    if (removals.has(index)) {
      throw new DensityResultError(
        'DENSITY_INDEX_CONFLICT',
        `Density result both removes and replaces index ${index}; nothing was applied.`,
      );
    }
  }
}
