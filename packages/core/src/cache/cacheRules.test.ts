import { describe, expect, it } from 'vitest';
import { cacheProviderFor, cacheRulesForProvider } from './cacheRules.js';

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
