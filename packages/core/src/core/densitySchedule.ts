/**
 * When a density edit is worth applying, priced as a provider with prompt caching charges: the
 * prefix unchanged since the previous call at 0.1×, everything after the first edit at 1.25×.
 *
 * Applying an edit that removes R tokens when S cached tokens follow its first edited entry costs
 * 1.15·S − 1.25·R more on the next call than leaving history alone, and saves 0.1·R on every call
 * after it. It pays for itself after 11.5·S/R − 12.5 calls. An edit at the end of history pays at
 * once; a small edit deep in a long history may never pay.
 */

export const CACHE_READ_PRICE = 0.1;
export const CACHE_WRITE_PRICE = 1.25;
/** Prompt caches expire after about five minutes without a request (Anthropic's default TTL). */
export const PROMPT_CACHE_TTL_MS = 5 * 60 * 1000;

export interface DensityScheduleInput {
  /** Tokens the edit removes. */
  readonly removedTokens: number;
  /** Tokens sent in the previous call that follow the first edited entry (their cache is lost). */
  readonly invalidatedTokens: number;
  /** Milliseconds since the previous call; undefined before the first call. */
  readonly msSinceLastSend: number | undefined;
  /** Apply when the edit pays for itself within this many calls. */
  readonly paybackCalls: number;
  /** The context is at the compression threshold: density must run before compression. */
  readonly underPressure: boolean;
}

export const DENSITY_SCHEDULE_REASONS = [
  'under-pressure',
  'no-cache-yet',
  'cache-cold',
  'pays-back',
  'deferred',
] as const;

export type DensityScheduleReason = (typeof DENSITY_SCHEDULE_REASONS)[number];

export interface DensityScheduleDecision {
  readonly apply: boolean;
  readonly reason: DensityScheduleReason;
  /** Calls after which the edit has paid for itself (0: at once; Infinity: never). */
  readonly paybackCalls: number;
}

/** Calls until applying costs less than not applying (the module comment derives it). */
export function callsToPayBack(removedTokens: number, invalidatedTokens: number): number {
  if (removedTokens <= 0) return Number.POSITIVE_INFINITY;
  const extra =
    (CACHE_WRITE_PRICE - CACHE_READ_PRICE) * invalidatedTokens - CACHE_WRITE_PRICE * removedTokens;
  return Math.max(0, extra / (CACHE_READ_PRICE * removedTokens));
}

export function decideDensityApplication(input: DensityScheduleInput): DensityScheduleDecision {
  const payback = callsToPayBack(input.removedTokens, input.invalidatedTokens);
  const decide = (apply: boolean, reason: DensityScheduleReason): DensityScheduleDecision => ({
    apply,
    reason,
    paybackCalls: payback,
  });
  if (input.underPressure) return decide(true, 'under-pressure');
  if (input.msSinceLastSend === undefined) return decide(true, 'no-cache-yet');
  if (input.msSinceLastSend >= PROMPT_CACHE_TTL_MS) return decide(true, 'cache-cold');
  if (payback <= input.paybackCalls) return decide(true, 'pays-back');
  return decide(false, 'deferred');
}
