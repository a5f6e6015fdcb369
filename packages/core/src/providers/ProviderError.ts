/**
 * The one error type providers throw. Every SDK failure (HTTP status, dropped connection, garbled
 * stream, abort, missing key) becomes a `ProviderError` with a stable `code`, the provider's name,
 * the HTTP status when there was one, and a message that never contains an API key.
 */
import { DenseError } from '../utils/errors.js';

export const PROVIDER_ERROR_CODES = [
  'PROVIDER_HTTP_ERROR',
  'PROVIDER_NETWORK_ERROR',
  'PROVIDER_PROTOCOL_ERROR',
  'PROVIDER_AUTH_MISSING',
  'PROVIDER_ABORTED',
  'PROVIDER_CONFIG_INVALID',
] as const;

export type ProviderErrorCode = (typeof PROVIDER_ERROR_CODES)[number];

export interface ProviderErrorInit {
  readonly code: ProviderErrorCode;
  /** Provider family ('openai', 'anthropic', 'gemini'). */
  readonly provider: string;
  readonly message: string;
  readonly status?: number;
  /** How long the server asked us to wait before retrying (Retry-After), in milliseconds. */
  readonly retryAfterMs?: number;
  /** How many attempts were made before giving up (1 = no retry). */
  readonly attempts?: number;
  readonly cause?: unknown;
}

export class ProviderError extends DenseError {
  readonly code: ProviderErrorCode;
  readonly provider: string;
  readonly status: number | undefined;
  readonly retryAfterMs: number | undefined;
  readonly attempts: number | undefined;

  constructor(init: ProviderErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.code = init.code;
    this.provider = init.provider;
    this.status = init.status;
    this.retryAfterMs = init.retryAfterMs;
    this.attempts = init.attempts;
  }

  /** A copy with a new message and attempt count (used when retries are exhausted). */
  withAttempts(attempts: number): ProviderError {
    const suffix = attempts > 1 ? ` (gave up after ${attempts} attempts)` : '';
    return new ProviderError({
      code: this.code,
      provider: this.provider,
      message: `${this.message}${suffix}`,
      ...(this.status === undefined ? {} : { status: this.status }),
      ...(this.retryAfterMs === undefined ? {} : { retryAfterMs: this.retryAfterMs }),
      attempts,
      cause: this.cause,
    });
  }
}

export function isProviderError(error: unknown): error is ProviderError {
  return error instanceof ProviderError;
}
