/** The list price a session is billed at: longest model prefix, else its client's default. */
import { describe, expect, it } from 'vitest';
import { listPriceFor } from './listPrices.js';

describe('#37.1 listPriceFor', () => {
  it('#37.1 picks the longest prefix, ignoring a vendor prefix and the [1m] tag', () => {
    expect(listPriceFor('claude-code', 'claude-opus-4-1-20250805').inputUsdPerMTok).toBe(15);
    expect(listPriceFor('claude-code', 'claude-opus-4-5-20251101').inputUsdPerMTok).toBe(5);
    expect(listPriceFor('claude-code', 'claude-opus-4-20250514').inputUsdPerMTok).toBe(15);
    expect(listPriceFor('claude-code', 'claude-sonnet-4-5[1m]').label).toBe('Claude Sonnet');
    expect(listPriceFor('codex', 'openai/gpt-5-mini').inputUsdPerMTok).toBe(0.25);
    expect(listPriceFor('gemini-cli', 'gemini-2.5-flash').cacheRules).toBe('gemini');
  });

  it('#37.1 the 2026 Claude models at their list prices (Opus 5.5 $4, Sonnet 5.x $2, Haiku 5.5 $0.10)', () => {
    expect(listPriceFor('claude-code', 'claude-opus-5-5').inputUsdPerMTok).toBe(4);
    expect(listPriceFor('claude-code', 'claude-opus-5').inputUsdPerMTok).toBe(5);
    expect(listPriceFor('claude-code', 'claude-sonnet-5-5[1m]').inputUsdPerMTok).toBe(2);
    expect(listPriceFor('claude-code', 'claude-sonnet-4-6').inputUsdPerMTok).toBe(3);
    expect(listPriceFor('claude-code', 'claude-haiku-5-5').inputUsdPerMTok).toBe(0.1);
    expect(listPriceFor('claude-code', 'claude-haiku-4-5').inputUsdPerMTok).toBe(1);
  });

  it('#37.1 an unknown or missing model gets its client’s default, named as such', () => {
    expect(listPriceFor('codex', 'some-new-model').label).toBe('GPT-5 (Codex default)');
    expect(listPriceFor('claude-code', undefined).cacheRules).toBe('anthropic');
    expect(listPriceFor('gemini-cli', undefined).inputUsdPerMTok).toBe(1.25);
  });
});
