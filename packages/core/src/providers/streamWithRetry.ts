/**
 * The executor around one streamed completion: opens an attempt, passes its chunks through, and on
 * failure asks `planRetry` whether to wait and try again. Once a chunk has reached the caller a
 * failure is final (a retry would duplicate output). An abort ends the stream at once with
 * PROVIDER_ABORTED, even if the SDK underneath is slow to notice.
 */
import type { DebugLogger } from '../utils/logger.js';
import type { ProviderChunk } from './IProvider.js';
import { ProviderError } from './ProviderError.js';
import { planRetry, retryReason, type RetryPolicy } from './retryPolicy.js';
import { providerLabel, toProviderError } from './toProviderError.js';

/** Waits `ms`; rejects (with anything) when `signal` aborts first. */
export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

export const defaultSleep: Sleep = (ms, signal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted === true) {
      reject(signal.reason as Error);
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal?.reason as Error);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });

/** How a provider retries: the policy plus the clock and dice, injectable for tests. */
export interface RetryRuntime {
  readonly policy: RetryPolicy;
  readonly sleep: Sleep;
  readonly random: () => number;
  readonly logger: DebugLogger;
}

export interface RetryingStreamOptions {
  readonly provider: string;
  readonly signal: AbortSignal | undefined;
  readonly runtime: RetryRuntime;
  /** Never shown in errors or logs. */
  readonly secrets: readonly string[];
  /** Starts attempt number `attempt` (1-based) and streams its chunks. */
  readonly open: (attempt: number) => AsyncIterable<ProviderChunk>;
}

export async function* streamWithRetry(
  options: RetryingStreamOptions,
): AsyncGenerator<ProviderChunk, void, undefined> {
  const { provider, signal, runtime } = options;
  const errorContext = { provider, secrets: options.secrets, ...(signal ? { signal } : {}) };
  for (let attempt = 1; ; attempt++) {
    let yielded = false;
    try {
      throwIfAborted(provider, signal);
      for await (const chunk of abortable(options.open(attempt), signal)) {
        throwIfAborted(provider, signal);
        yielded = true;
        yield chunk;
      }
      throwIfAborted(provider, signal);
      return;
    } catch (caught) {
      const error = toProviderError(caught, errorContext);
      const decision = planRetry({
        error,
        attempt,
        yieldedOutput: yielded,
        policy: runtime.policy,
        random: runtime.random,
      });
      if (decision.kind === 'give-up') {
        runtime.logger.debug('provider request failed', {
          provider,
          code: error.code,
          status: error.status,
          attempt,
          reason: decision.reason,
        });
        throw decision.reason === 'attempts-exhausted' ? error.withAttempts(attempt) : error;
      }
      runtime.logger.debug('provider request will be retried', {
        provider,
        code: error.code,
        status: error.status,
        attempt,
        delayMs: decision.delayMs,
      });
      yield retryChunk(error, attempt + 1, runtime.policy.maxAttempts, decision.delayMs);
      try {
        await runtime.sleep(decision.delayMs, signal);
      } catch (sleepError) {
        throw toProviderError(sleepError, errorContext);
      }
    }
  }
}

/** The blockless chunk that announces a retry wait; callers show it, the reply ignores it. */
function retryChunk(
  error: ProviderError,
  nextAttempt: number,
  maxAttempts: number,
  delayMs: number,
): ProviderChunk {
  return {
    content: { speaker: 'ai', blocks: [] },
    retry: {
      reason: retryReason(error),
      ...(error.status === undefined ? {} : { status: error.status }),
      nextAttempt,
      maxAttempts,
      delayMs,
    },
  };
}

function throwIfAborted(provider: string, signal: AbortSignal | undefined): void {
  if (signal?.aborted === true) {
    throw new ProviderError({
      code: 'PROVIDER_ABORTED',
      provider,
      message: `${providerLabel(provider)}: the request was aborted.`,
    });
  }
}

/**
 * Iterates `source`, but rejects as soon as `signal` aborts instead of waiting for the source's
 * pending `next()`; the source is then closed in the background.
 */
export async function* abortable<T>(
  source: AsyncIterable<T>,
  signal: AbortSignal | undefined,
): AsyncGenerator<T, void, undefined> {
  const iterator = source[Symbol.asyncIterator]();
  if (signal === undefined) {
    yield* { [Symbol.asyncIterator]: () => iterator };
    return;
  }
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(signal.reason as Error);
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
  });
  aborted.catch(() => undefined);
  let finished = false;
  try {
    for (;;) {
      const step = await Promise.race([iterator.next(), aborted]);
      if (step.done === true) {
        finished = true;
        return;
      }
      yield step.value;
    }
  } finally {
    if (onAbort) signal.removeEventListener('abort', onAbort);
    if (!finished) iterator.return?.().catch(() => undefined);
  }
}
