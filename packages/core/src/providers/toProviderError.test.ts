import { describe, expect, it } from 'vitest';
import { ProviderError } from './ProviderError.js';
import { redactSecrets, serverMessage, toProviderError } from './toProviderError.js';

const withCause = (message: string, cause: unknown): Error =>
  Object.assign(new Error(message), { cause });

describe('toProviderError', () => {
  it('maps an SDK HTTP error to PROVIDER_HTTP_ERROR with status, server message and Retry-After', () => {
    const sdkError = Object.assign(new Error('429 Too many requests'), {
      status: 429,
      headers: new Headers({ 'retry-after': '12' }),
      error: { message: 'Rate limit reached for requests' },
    });
    const error = toProviderError(sdkError, { provider: 'openai' });
    expect(error).toMatchObject({
      code: 'PROVIDER_HTTP_ERROR',
      provider: 'openai',
      status: 429,
      retryAfterMs: 12_000,
    });
    expect(error.message).toBe(
      'OpenAI-compatible provider request failed with HTTP 429: Rate limit reached for requests',
    );
  });

  it("reads Anthropic's nested error body and hints at the key on 401", () => {
    const sdkError = Object.assign(new Error('401 {...}'), {
      status: 401,
      error: {
        type: 'error',
        error: { type: 'authentication_error', message: 'invalid x-api-key' },
      },
    });
    expect(toProviderError(sdkError, { provider: 'anthropic' }).message).toBe(
      'Anthropic provider request failed with HTTP 401: invalid x-api-key — check the API key.',
    );
  });

  it("reads Gemini's JSON-in-message errors, including a retryDelay in the details", () => {
    const body = {
      error: {
        code: 429,
        message: 'Quota exceeded',
        status: 'RESOURCE_EXHAUSTED',
        details: [{ '@type': 'RetryInfo', retryDelay: '17s' }],
      },
    };
    const sdkError = Object.assign(new Error(JSON.stringify(body)), { status: 429 });
    const error = toProviderError(sdkError, { provider: 'gemini' });
    expect(error.message).toContain('HTTP 429: Quota exceeded');
    expect(error.retryAfterMs).toBe(17_000);
  });

  it('prefers a Retry-After captured outside the error (Gemini drops headers)', () => {
    const sdkError = Object.assign(new Error('{}'), { status: 503 });
    expect(toProviderError(sdkError, { provider: 'gemini', retryAfterMs: 2500 }).retryAfterMs).toBe(
      2500,
    );
  });

  it('finds connection failures anywhere in the cause chain', () => {
    const refused = withCause(
      'Connection error.',
      withCause('fetch failed', Object.assign(new Error('connect'), { code: 'ECONNREFUSED' })),
    );
    const reset = Object.assign(new TypeError('terminated'), {
      cause: Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' }),
    });
    expect(toProviderError(refused, { provider: 'openai' }).code).toBe('PROVIDER_NETWORK_ERROR');
    expect(toProviderError(reset, { provider: 'openai' }).code).toBe('PROVIDER_NETWORK_ERROR');
    expect(
      toProviderError(Object.assign(new Error('x'), { code: 'ECONNRESET' }), { provider: 'openai' })
        .message,
    ).toContain('ECONNRESET');
  });

  it('maps JSON parse failures to PROVIDER_PROTOCOL_ERROR, and aborts to PROVIDER_ABORTED', () => {
    expect(toProviderError(new SyntaxError('Unexpected token'), { provider: 'openai' }).code).toBe(
      'PROVIDER_PROTOCOL_ERROR',
    );
    const abortError = Object.assign(new Error('Request was aborted.'), {
      name: 'APIUserAbortError',
    });
    expect(toProviderError(abortError, { provider: 'openai' }).code).toBe('PROVIDER_ABORTED');
    const controller = new AbortController();
    controller.abort();
    expect(
      toProviderError(new Error('anything'), { provider: 'gemini', signal: controller.signal })
        .code,
    ).toBe('PROVIDER_ABORTED');
  });

  it('passes ProviderErrors through unchanged', () => {
    const original = new ProviderError({
      code: 'PROVIDER_PROTOCOL_ERROR',
      provider: 'gemini',
      message: 'x',
    });
    expect(toProviderError(original, { provider: 'gemini' })).toBe(original);
  });

  it('never lets a secret through, in the message or in the cause', () => {
    const secret = 'sk-live-0123456789';
    const sdkError = Object.assign(new Error(`401 Incorrect API key provided: ${secret}`), {
      status: 401,
      error: { message: `Incorrect API key provided: ${secret}` },
    });
    const error = toProviderError(sdkError, { provider: 'openai', secrets: [secret] });
    expect(error.message).toContain('[redacted]');
    expect(error.message).not.toContain(secret);
    expect(String((error.cause as Error).message)).not.toContain(secret);
    expect(JSON.stringify(error)).not.toContain(secret);
  });
});

describe('redactSecrets / serverMessage', () => {
  it('redacts every occurrence but ignores trivially short secrets', () => {
    expect(redactSecrets('a KEY1 b KEY1', ['KEY1'])).toBe('a [redacted] b [redacted]');
    expect(redactSecrets('abc', ['ab'])).toBe('abc');
  });
  it('falls back to the SDK message without its status prefix', () => {
    expect(serverMessage(new Error('500 Internal Server Error'))).toBe('Internal Server Error');
  });
});
