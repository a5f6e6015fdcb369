/**
 * What the density schedule is told about the context's pressure before a model call: the room a
 * pressure batch must make, and the compression that could go with it. Pure; CompressionHandler
 * gathers the numbers.
 */
import type { PressureCompression } from './densitySchedule.js';
import type { DensityOutlook } from './densityOutlook.js';

/**
 * Under pressure, a density batch must make room for this many calls. Measured on the corpus
 * replay at 32k: 2 or 3 save more cache cost but let one session compress once more than before
 * (a session must not compress more often because of density); 1 keeps every session's
 * compressions.
 */
export const PRESSURE_CALLS = 1;

/** The density step's pressure inputs (see DensityScheduleInput). */
export interface DensityPressure {
  readonly underPressure?: boolean;
  readonly pressureRoom?: number;
  readonly compression?: PressureCompression;
  /** Where the context is heading (`densityOutlook.ts`); set by `DensityScheduler.pressure`. */
  readonly outlook?: DensityOutlook;
}

export interface DensityPressureInput {
  /** The history's tokens plus the message about to be added. */
  readonly tokens: number;
  /** threshold × context limit, in tokens. */
  readonly thresholdTokens: number;
  /** Recent growth of the history per call (`GrowthTracker`). */
  readonly growthPerCall: number;
  /** What a compression now would leave at most; undefined when none would run or it is unknown. */
  readonly compressedTokens: number | undefined;
}

/**
 * The room a batch must make to keep the next `PRESSURE_CALLS` calls under the threshold, and the
 * compression a pressure batch is priced against when one could run now.
 */
export function densityPressure(input: DensityPressureInput): DensityPressure {
  const room = Math.max(
    0,
    input.tokens - (input.thresholdTokens - PRESSURE_CALLS * input.growthPerCall),
  );
  if (input.compressedTokens === undefined) return { pressureRoom: room };
  return {
    pressureRoom: room,
    compression: { tokensBefore: input.tokens, tokensAfter: input.compressedTokens },
  };
}
