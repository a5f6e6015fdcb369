/**
 * The retry decisions shared by every provider, as pure functions: which failures are worth
 * another attempt, how long to wait (exponential backoff with full jitter, or the server's
 * Retry-After), and when to give up.
 */
import type { ProviderError } from './ProviderError.js';

export interface RetryPolicy {
  /** Total attempts including the first (1 = never retry). */
  readonly maxAttempts: number;
  /** Backoff cap for the first retry, in ms; it doubles per attempt. */
  readonly baseDelayMs: number;
  /** Upper bound of any computed backoff, in ms. */
  readonly maxDelayMs: number;
  /** A Retry-After longer than this (ms) is not waited for: the error is thrown instead. */
  readonly maxRetryAfterMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxAttempts: 4,
  baseDelayMs: 1_000,
  maxDelayMs: 30_000,
  maxRetryAfterMs: 120_000,
};

export type RetryDecision =
  | { readonly kind: 'retry'; readonly delayMs: number }
  | { readonly kind: 'give-up'; readonly reason: GiveUpReason };

export const GIVE_UP_REASONS = [
  'not-retryable',
  'attempts-exhausted',
  'output-already-yielded',
  'retry-after-too-long',
] as const;
export type GiveUpReason = (typeof GIVE_UP_REASONS)[number];

/** 429, any 5xx, and dropped or refused connections are transient; everything else is not. */
export function isRetryableError(error: ProviderError): boolean {
  if (error.code === 'PROVIDER_NETWORK_ERROR') return true;
  if (error.code !== 'PROVIDER_HTTP_ERROR' || error.status === undefined) return false;
  return error.status === 429 || error.status >= 500;
}

export interface RetryInput {
  readonly error: ProviderError;
  /** The attempt that just failed, starting at 1. */
  readonly attempt: number;
  /** Whether any chunk of this reply has already reached the caller. */
  readonly yieldedOutput: boolean;
  readonly policy: RetryPolicy;
  /** A number in [0, 1). */
  readonly random: () => number;
}

/** Decides whether to try again after `error`, and how long to wait first. */
export function planRetry(input: RetryInput): RetryDecision {
  const { error, attempt, policy } = input;
  if (input.yieldedOutput) return { kind: 'give-up', reason: 'output-already-yielded' };
  if (!isRetryableError(error)) return { kind: 'give-up', reason: 'not-retryable' };
  if (attempt >= policy.maxAttempts) return { kind: 'give-up', reason: 'attempts-exhausted' };
  if (error.retryAfterMs !== undefined) {
    if (error.retryAfterMs > policy.maxRetryAfterMs) {
      return { kind: 'give-up', reason: 'retry-after-too-long' };
    }
    return { kind: 'retry', delayMs: Math.max(0, error.retryAfterMs) };
  }
  return { kind: 'retry', delayMs: backoffDelayMs(attempt, policy, input.random) };
}

export const RETRY_REASONS = ['rate-limited', 'overloaded', 'server-error', 'network'] as const;
export type RetryReason = (typeof RETRY_REASONS)[number];

/** A retry about to be waited for, as the provider's stream announces it. */
export interface RetryNotice {
  readonly reason: RetryReason;
  /** HTTP status of the failure, when there was one. */
  readonly status?: number;
  /** The attempt that will run after the wait (2 for the first retry). */
  readonly nextAttempt: number;
  readonly maxAttempts: number;
  readonly delayMs: number;
}

/** What kind of transient failure `error` is: 429, 503/529 (overloaded), other 5xx, network. */
export function retryReason(error: ProviderError): RetryReason {
  if (error.code === 'PROVIDER_NETWORK_ERROR' || error.status === undefined) return 'network';
  if (error.status === 429) return 'rate-limited';
  if (error.status === 503 || error.status === 529) return 'overloaded';
  return 'server-error';
}

/** Full jitter: uniform in [0, min(maxDelay, base · 2^(attempt-1))). */
export function backoffDelayMs(attempt: number, policy: RetryPolicy, random: () => number): number {
  const exponent = Math.min(Math.max(attempt - 1, 0), 30);
  const cap = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** exponent);
  return Math.floor(Math.min(Math.max(random(), 0), 1) * cap);
}

/**
 * Parses a Retry-After header value — delay-seconds or an HTTP date — into milliseconds from
 * `nowMs`. Returns undefined for a missing or unreadable value; a date in the past gives 0.
 */
export function parseRetryAfter(
  value: string | null | undefined,
  nowMs: number,
): number | undefined {
  if (value == null) return undefined;
  const trimmed = value.trim();
  if (trimmed === '') return undefined;
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  // An HTTP date always names a weekday or month; bare numbers like "-5" are not dates.
  const date = /[a-z]/i.test(trimmed) ? Date.parse(trimmed) : Number.NaN;
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - nowMs);
}

/** Reads `retry-after-ms` (OpenAI's extension) or `retry-after` from response headers. */
export function retryAfterFromHeaders(
  headers: { get(name: string): string | null } | undefined,
  nowMs: number,
): number | undefined {
  if (headers === undefined) return undefined;
  const ms = headers.get('retry-after-ms');
  if (ms !== null && /^\d+(\.\d+)?$/.test(ms.trim())) return Math.round(Number(ms.trim()));
  return parseRetryAfter(headers.get('retry-after'), nowMs);
}
