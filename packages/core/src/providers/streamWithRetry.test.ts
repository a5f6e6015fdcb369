import { describe, expect, it } from 'vitest';
import { textChunk } from './chunks.js';
import type { ProviderChunk } from './IProvider.js';
import { ProviderError } from './ProviderError.js';
import { DEFAULT_RETRY_POLICY } from './retryPolicy.js';
import { abortable, defaultSleep, streamWithRetry, type RetryRuntime } from './streamWithRetry.js';
import { nullLogger } from '../utils/logger.js';
import { collectUntilError, recordingSleep } from '../test-utils/mockServer/providerTestKit.js';

const status = (s: number, retryAfterMs?: number): ProviderError =>
  new ProviderError({
    code: 'PROVIDER_HTTP_ERROR',
    provider: 'openai',
    message: `HTTP ${s}`,
    status: s,
    ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
  });

function runtime(sleep = recordingSleep().sleep): RetryRuntime {
  return { policy: DEFAULT_RETRY_POLICY, sleep, random: () => 0, logger: nullLogger };
}

/** An attempt that yields `texts` then throws `error` (if any). */
function attemptOf(texts: readonly string[], error?: unknown) {
  return async function* (): AsyncGenerator<ProviderChunk> {
    for (const text of texts) yield textChunk(text);
    await Promise.resolve();
    if (error !== undefined) throw error as Error;
  };
}

describe('streamWithRetry', () => {
  it('retries a failure that happened before any output, then streams the good attempt', async () => {
    const { sleep, delays } = recordingSleep();
    const attempts = [
      attemptOf([], status(429, 1234)),
      attemptOf([], status(503)),
      attemptOf(['ok']),
    ];
    const { chunks, error } = await collectUntilError(
      streamWithRetry({
        provider: 'openai',
        signal: undefined,
        runtime: runtime(sleep),
        secrets: [],
        open: (n) => attempts[n - 1]!(),
      }),
    );
    expect(error).toBeUndefined();
    // #13.2: each wait is announced (reason, next attempt of the bound, delay) before it starts.
    const notice = (reason: string, s: number, nextAttempt: number, delayMs: number) => ({
      content: { speaker: 'ai', blocks: [] },
      retry: { reason, status: s, nextAttempt, maxAttempts: 4, delayMs },
    });
    expect(chunks).toEqual([
      notice('rate-limited', 429, 2, 1234),
      notice('overloaded', 503, 3, 0),
      textChunk('ok'),
    ]);
    expect(delays).toEqual([1234, 0]);
  });

  it('does not retry after a chunk was yielded: the typed error surfaces', async () => {
    let opened = 0;
    const { chunks, error } = await collectUntilError(
      streamWithRetry({
        provider: 'openai',
        signal: undefined,
        runtime: runtime(),
        secrets: [],
        open: () => {
          opened++;
          return attemptOf(
            ['partial'],
            Object.assign(new TypeError('terminated'), {
              cause: Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' }),
            }),
          )();
        },
      }),
    );
    expect(opened).toBe(1);
    expect(chunks).toEqual([textChunk('partial')]);
    expect(error).toBeInstanceOf(ProviderError);
    expect((error as ProviderError).code).toBe('PROVIDER_NETWORK_ERROR');
  });

  it('gives up after maxAttempts with the attempt count in the error', async () => {
    let opened = 0;
    const { error } = await collectUntilError(
      streamWithRetry({
        provider: 'anthropic',
        signal: undefined,
        runtime: runtime(),
        secrets: [],
        open: () => {
          opened++;
          return attemptOf([], status(500))();
        },
      }),
    );
    expect(opened).toBe(4);
    expect(error).toMatchObject({ code: 'PROVIDER_HTTP_ERROR', status: 500, attempts: 4 });
    expect((error as Error).message).toContain('gave up after 4 attempts');
  });

  it('an abort during the backoff wait ends with PROVIDER_ABORTED and no further attempt', async () => {
    const controller = new AbortController();
    let opened = 0;
    const { error } = await collectUntilError(
      streamWithRetry({
        provider: 'gemini',
        signal: controller.signal,
        runtime: {
          ...runtime(),
          sleep: (ms, signal) => {
            controller.abort();
            return defaultSleep(ms, signal);
          },
        },
        secrets: [],
        open: () => {
          opened++;
          return attemptOf([], status(503))();
        },
      }),
    );
    expect(opened).toBe(1);
    expect(error).toMatchObject({ code: 'PROVIDER_ABORTED', provider: 'gemini' });
  });
});

describe('abortable', () => {
  it('rejects as soon as the signal aborts, even while the source never answers', async () => {
    const controller = new AbortController();
    const never: AsyncIterable<number> = {
      [Symbol.asyncIterator]: () => ({ next: () => new Promise(() => undefined) }),
    };
    const pending = abortable(never, controller.signal).next();
    controller.abort(new Error('stop'));
    await expect(pending).rejects.toThrow('stop');
  });

  it('passes values through and closes the source when the consumer stops early', async () => {
    let closed = false;
    async function* source(): AsyncGenerator<number> {
      try {
        await Promise.resolve();
        yield 1;
        yield 2;
        yield 3;
      } finally {
        closed = true;
      }
    }
    const seen: number[] = [];
    for await (const value of abortable(source(), new AbortController().signal)) {
      seen.push(value);
      if (value === 2) break;
    }
    await Promise.resolve();
    expect(seen).toEqual([1, 2]);
    expect(closed).toBe(true);
  });
});

describe('defaultSleep', () => {
  it('rejects at once when the signal is already aborted', async () => {
    const controller = new AbortController();
    controller.abort(new Error('gone'));
    await expect(defaultSleep(60_000, controller.signal)).rejects.toThrow('gone');
  });
});
