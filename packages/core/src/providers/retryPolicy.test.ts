import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { ProviderError } from './ProviderError.js';
import {
  backoffDelayMs,
  DEFAULT_RETRY_POLICY,
  isRetryableError,
  parseRetryAfter,
  planRetry,
  retryAfterFromHeaders,
} from './retryPolicy.js';

const httpError = (status: number, retryAfterMs?: number): ProviderError =>
  new ProviderError({
    code: 'PROVIDER_HTTP_ERROR',
    provider: 'openai',
    message: `HTTP ${status}`,
    status,
    ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
  });

const networkError = new ProviderError({
  code: 'PROVIDER_NETWORK_ERROR',
  provider: 'openai',
  message: 'reset',
});

describe('parseRetryAfter', () => {
  const now = Date.parse('2026-11-22T10:00:00Z');
  it('reads delay-seconds, including fractions', () => {
    expect(parseRetryAfter('7', now)).toBe(7000);
    expect(parseRetryAfter(' 1.5 ', now)).toBe(1500);
    expect(parseRetryAfter('0', now)).toBe(0);
  });
  it('reads an HTTP date relative to now, and clamps a past date to 0', () => {
    expect(parseRetryAfter('Sun, 22 Nov 2026 10:00:30 GMT', now)).toBe(30_000);
    expect(parseRetryAfter('Sun, 22 Nov 2026 09:00:00 GMT', now)).toBe(0);
  });
  it('ignores missing or unreadable values', () => {
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
    expect(parseRetryAfter(null, now)).toBeUndefined();
    expect(parseRetryAfter('', now)).toBeUndefined();
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter('-5', now)).toBeUndefined();
  });
  it('prefers retry-after-ms over retry-after in headers', () => {
    const headers = new Headers({ 'retry-after-ms': '250', 'retry-after': '9' });
    expect(retryAfterFromHeaders(headers, now)).toBe(250);
    expect(retryAfterFromHeaders(new Headers({ 'retry-after': '9' }), now)).toBe(9000);
    expect(retryAfterFromHeaders(undefined, now)).toBeUndefined();
  });
});

describe('isRetryableError', () => {
  it('retries 429, 5xx and network failures only', () => {
    expect(isRetryableError(httpError(429))).toBe(true);
    expect(isRetryableError(httpError(500))).toBe(true);
    expect(isRetryableError(httpError(503))).toBe(true);
    expect(isRetryableError(networkError)).toBe(true);
    for (const status of [400, 401, 403, 404, 422])
      expect(isRetryableError(httpError(status))).toBe(false);
    const protocol = new ProviderError({
      code: 'PROVIDER_PROTOCOL_ERROR',
      provider: 'x',
      message: 'm',
    });
    const aborted = new ProviderError({ code: 'PROVIDER_ABORTED', provider: 'x', message: 'm' });
    expect(isRetryableError(protocol)).toBe(false);
    expect(isRetryableError(aborted)).toBe(false);
  });
});

describe('planRetry', () => {
  const base = {
    attempt: 1,
    yieldedOutput: false,
    policy: DEFAULT_RETRY_POLICY,
    random: () => 0.5,
  };

  it('waits exactly the Retry-After the server asked for', () => {
    expect(planRetry({ ...base, error: httpError(429, 7000) })).toEqual({
      kind: 'retry',
      delayMs: 7000,
    });
  });
  it('backs off with jitter when the server gives no Retry-After', () => {
    expect(planRetry({ ...base, error: httpError(500) })).toEqual({ kind: 'retry', delayMs: 500 });
    expect(planRetry({ ...base, attempt: 3, error: httpError(500) })).toEqual({
      kind: 'retry',
      delayMs: 2000,
    });
  });
  it('never retries once output reached the caller (it would be duplicated)', () => {
    expect(planRetry({ ...base, yieldedOutput: true, error: networkError })).toEqual({
      kind: 'give-up',
      reason: 'output-already-yielded',
    });
  });
  it('gives up on client errors, at the attempt bound, and on a too-long Retry-After', () => {
    expect(planRetry({ ...base, error: httpError(400) })).toMatchObject({
      reason: 'not-retryable',
    });
    expect(planRetry({ ...base, attempt: 4, error: httpError(500) })).toMatchObject({
      reason: 'attempts-exhausted',
    });
    expect(planRetry({ ...base, error: httpError(429, 10 * 60_000) })).toMatchObject({
      reason: 'retry-after-too-long',
    });
  });
});

describe('backoffDelayMs', () => {
  test.prop(
    [
      fc.integer({ min: 1, max: 40 }),
      fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
    ],
    { numRuns: 200 },
  )('stays within [0, min(maxDelay, base·2^(attempt-1)))', (attempt, r) => {
    const policy = DEFAULT_RETRY_POLICY;
    const delay = backoffDelayMs(attempt, policy, () => r);
    const cap = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
    expect(delay).toBeGreaterThanOrEqual(0);
    expect(delay).toBeLessThan(Math.max(cap, 1));
    expect(Number.isInteger(delay)).toBe(true);
  });

  it('grows exponentially until the cap', () => {
    const top = () => 0.999999;
    const delays = [1, 2, 3, 4, 5, 6, 7].map((n) => backoffDelayMs(n, DEFAULT_RETRY_POLICY, top));
    expect(delays.slice(0, 5)).toEqual([999, 1999, 3999, 7999, 15999]);
    expect(delays[6]).toBe(29999);
  });
});
