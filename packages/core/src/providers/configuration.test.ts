import { inspect } from 'node:util';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { AnthropicProvider } from './AnthropicProvider.js';
import { createProvider } from './createProvider.js';
import { GeminiProvider } from './GeminiProvider.js';
import { DEFAULT_MODELS, getModelLimits } from './modelLimits.js';
import { OpenAIProvider } from './OpenAIProvider.js';
import { thrownBy } from '../test-utils/mockServer/providerTestKit.js';
import { isLoopbackUrl, LOCAL_PLACEHOLDER_KEY, resolveApiKey } from './resolveApiKey.js';

const SECRET = 'sk-very-secret-value-42';

describe('resolveApiKey', () => {
  it('takes the configured key first, then the key file, then the environment', () => {
    const readTextFile = () => `  file-key\n`;
    expect(
      resolveApiKey(
        { provider: 'openai', apiKey: 'cfg', apiKeyFile: '/k' },
        { OPENAI_API_KEY: 'env' },
        readTextFile,
      ),
    ).toBe('cfg');
    expect(
      resolveApiKey(
        { provider: 'openai', apiKeyFile: '/k' },
        { OPENAI_API_KEY: 'env' },
        readTextFile,
      ),
    ).toBe('file-key');
    expect(resolveApiKey({ provider: 'openai' }, { OPENAI_API_KEY: 'env' })).toBe('env');
    expect(resolveApiKey({ provider: 'anthropic' }, { ANTHROPIC_API_KEY: 'a' })).toBe('a');
  });

  it('reads GEMINI_API_KEY, with GOOGLE_API_KEY as the fallback', () => {
    expect(
      resolveApiKey({ provider: 'gemini' }, { GEMINI_API_KEY: 'g', GOOGLE_API_KEY: 'x' }),
    ).toBe('g');
    expect(resolveApiKey({ provider: 'gemini' }, { GOOGLE_API_KEY: 'x' })).toBe('x');
  });

  it('says which variable to set when no key is found', () => {
    const missing = thrownBy(() => resolveApiKey({ provider: 'anthropic' }, {}));
    expect(missing.code).toBe('PROVIDER_AUTH_MISSING');
    expect(missing.message).toContain('Set ANTHROPIC_API_KEY');
    expect(() => resolveApiKey({ provider: 'gemini' }, { GEMINI_API_KEY: '  ' })).toThrow(
      /GEMINI_API_KEY or GOOGLE_API_KEY/,
    );
  });

  it('needs no key for a server on this machine (placeholder), but does for a remote one', () => {
    expect(resolveApiKey({ provider: 'openai', baseUrl: 'http://localhost:11434/v1' }, {})).toBe(
      LOCAL_PLACEHOLDER_KEY,
    );
    expect(resolveApiKey({ provider: 'openai', baseUrl: 'http://127.0.0.1:8080/v1' }, {})).toBe(
      LOCAL_PLACEHOLDER_KEY,
    );
    expect(() =>
      resolveApiKey({ provider: 'openai', baseUrl: 'https://openrouter.ai/api/v1' }, {}),
    ).toThrow(/OPENAI_API_KEY/);
    expect(isLoopbackUrl('http://[::1]:1234')).toBe(true);
    expect(isLoopbackUrl('http://127.evil.com')).toBe(false);
    expect(isLoopbackUrl('not a url')).toBe(false);
  });

  it('reports an unreadable or empty key file by path, never by content', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'dense-key-'));
    const empty = path.join(dir, 'empty');
    writeFileSync(empty, '\n');
    const emptyError = thrownBy(() => resolveApiKey({ provider: 'openai', apiKeyFile: empty }, {}));
    expect(emptyError.code).toBe('PROVIDER_AUTH_MISSING');
    expect(emptyError.message).toContain('is empty');
    expect(() =>
      resolveApiKey({ provider: 'openai', apiKeyFile: path.join(dir, 'missing') }, {}),
    ).toThrow(/Could not read/);
    const good = path.join(dir, 'good');
    writeFileSync(good, `${SECRET}\n`);
    expect(resolveApiKey({ provider: 'openai', apiKeyFile: good }, {})).toBe(SECRET);
    expect(resolveApiKey({ provider: 'openai', apiKeyFile: '~/good' }, { HOME: dir })).toBe(SECRET);
  });
});

describe('createProvider', () => {
  it('builds the right class with the default model per provider', () => {
    const env = { OPENAI_API_KEY: 'o', ANTHROPIC_API_KEY: 'a', GEMINI_API_KEY: 'g' };
    expect(createProvider({ provider: 'openai' }, env)).toBeInstanceOf(OpenAIProvider);
    expect(createProvider({ provider: 'Anthropic' }, env)).toBeInstanceOf(AnthropicProvider);
    const gemini = createProvider({ provider: 'gemini' }, env);
    expect(gemini).toBeInstanceOf(GeminiProvider);
    expect(gemini.model).toBe(DEFAULT_MODELS.gemini);
    expect(createProvider({ provider: 'openai', model: 'gpt-4.1' }, env).model).toBe('gpt-4.1');
  });

  it('rejects an unknown provider with a suggestion, and a base URL that is not http(s)', () => {
    const unknown = thrownBy(() => createProvider({ provider: 'opnai' }, {}));
    expect(unknown.code).toBe('PROVIDER_CONFIG_INVALID');
    expect(unknown.message).toContain("did you mean 'openai'");
    const badUrl = thrownBy(() =>
      createProvider({ provider: 'openai', baseUrl: 'ftp://x' }, { OPENAI_API_KEY: 'k' }),
    );
    expect(badUrl.code).toBe('PROVIDER_CONFIG_INVALID');
  });

  it.each(['openai', 'anthropic', 'gemini'])(
    'a %s provider never shows its key in JSON, toString or inspect',
    (kind) => {
      const provider = createProvider(
        { provider: kind, apiKey: SECRET, baseUrl: 'http://127.0.0.1:9/v1' },
        {},
      );
      for (const text of [
        JSON.stringify(provider),
        (provider as OpenAIProvider).toString(),
        inspect(provider, { depth: 10, showHidden: true }),
      ]) {
        expect(text).not.toContain(SECRET);
        expect(text).toContain(kind);
      }
      expect(
        Object.values(provider as object)
          .map(String)
          .join(' '),
      ).not.toContain(SECRET);
    },
  );
});

describe('getModelLimits', () => {
  it('matches the longest known prefix, ignoring case and a vendor prefix', () => {
    expect(getModelLimits('gpt-5.4-mini-2026-03-17')).toEqual({
      contextWindow: 400_000,
      maxOutputTokens: 128_000,
    });
    expect(getModelLimits('gpt-5.4')).toEqual({
      contextWindow: 1_050_000,
      maxOutputTokens: 128_000,
    });
    expect(getModelLimits('openai/GPT-4o-mini')?.contextWindow).toBe(128_000);
    expect(getModelLimits('claude-haiku-4-5-20251001')).toEqual({
      contextWindow: 200_000,
      maxOutputTokens: 64_000,
    });
    expect(getModelLimits('claude-opus-4-1-20250805')?.maxOutputTokens).toBe(32_000);
    expect(getModelLimits('models/gemini-2.5-flash')?.contextWindow).toBe(1_048_576);
  });

  it('knows every default model and returns undefined for unknown ones', () => {
    for (const model of Object.values(DEFAULT_MODELS)) expect(getModelLimits(model)).toBeDefined();
    expect(getModelLimits('llama3.1:8b')).toBeUndefined();
    expect(getModelLimits('')).toBeUndefined();
  });
});
