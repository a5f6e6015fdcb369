/** What every concrete provider is built from, and the defaults for its retry runtime. */
import { nullLogger, type DebugLogger } from '../utils/logger.js';
import type { IdFactory } from './chunks.js';
import { DEFAULT_RETRY_POLICY, type RetryPolicy } from './retryPolicy.js';
import { defaultSleep, type RetryRuntime, type Sleep } from './streamWithRetry.js';

export interface ProviderOptions {
  /** Default model for requests that do not name one. */
  readonly model: string;
  /** Held privately by the provider: never logged, never serialised. */
  readonly apiKey: string;
  /** API root; the provider's public endpoint when omitted. */
  readonly baseUrl?: string;
  readonly retryPolicy?: Partial<RetryPolicy>;
  /** Injected wait (tests pass a fake that records delays and returns at once). */
  readonly sleep?: Sleep;
  readonly random?: () => number;
  readonly logger?: DebugLogger;
  /** Ids for tool calls the API leaves unnamed. */
  readonly idFactory?: IdFactory;
  /** Per-attempt request timeout in ms (default 10 minutes). */
  readonly timeoutMs?: number;
}

export const DEFAULT_TIMEOUT_MS = 600_000;

export function resolveRetryRuntime(options: ProviderOptions): RetryRuntime {
  return {
    policy: { ...DEFAULT_RETRY_POLICY, ...options.retryPolicy },
    sleep: options.sleep ?? defaultSleep,
    random: options.random ?? Math.random,
    logger: options.logger ?? nullLogger,
  };
}

/** The public, secret-free description of a provider (its toJSON / toString / inspect). */
export interface ProviderDescription {
  readonly name: string;
  readonly model: string;
  readonly baseUrl: string;
}

export function describeProvider(description: ProviderDescription): string {
  return `${description.name} provider (model ${description.model}, ${description.baseUrl})`;
}
