import { describe, expect, it } from 'vitest';
import { cacheProviderFor, cacheRulesForProvider, requestCacheProvider } from './cacheRules.js';

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
