import { describe, expect, it } from 'vitest';
import {
  CACHE_PROVIDERS,
  CACHE_RULES,
  cacheProviderFor,
  cacheRulesForProvider,
  outputMultiplierFor,
  requestCacheProvider,
} from './cacheRules.js';

describe('#23.2 one provider→rules mapping', () => {
  it.each([
    ['openai', 'openai'],
    ['codex', 'openai'],
    ['OpenAI-Responses', 'openai'],
    ['gemini', 'gemini'],
    ['google', 'gemini'],
    ['anthropic', 'anthropic'],
    ['replay', 'anthropic'],
  ] as const)('#23.2 %s is priced with the %s rules', (name, provider) => {
    expect(cacheProviderFor(name)).toBe(provider);
    expect(cacheRulesForProvider(name).provider).toBe(provider);
  });

  it('#25.1 the output price lives in the same table: each provider has one, and a name gets its provider’s', () => {
    for (const provider of CACHE_PROVIDERS) {
      expect(CACHE_RULES[provider].outputMultiplier).toBeGreaterThan(1);
    }
    expect(outputMultiplierFor('anthropic')).toBe(5);
    expect(outputMultiplierFor('openai-responses')).toBe(8);
    expect(outputMultiplierFor('gemini')).toBe(8);
    expect(outputMultiplierFor('replay')).toBe(CACHE_RULES.anthropic.outputMultiplier);
  });
});

describe('#24.4 a proxied request is priced with the rules of its wire API and breakpoints', () => {
  it('Anthropic with a 1-hour breakpoint, Anthropic, OpenAI', () => {
    const oneHour = '{"cache_control":{"type":"ephemeral","ttl": "1h"}}';
    expect(requestCacheProvider('anthropic', oneHour)).toBe('anthropic-1h');
    expect(requestCacheProvider('anthropic', '{"cache_control":{"type":"ephemeral"}}')).toBe(
      'anthropic',
    );
    expect(requestCacheProvider('openai-chat', oneHour)).toBe('openai');
  });
});
