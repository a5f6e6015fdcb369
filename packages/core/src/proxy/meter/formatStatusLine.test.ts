import { describe, expect, it } from 'vitest';
import { compactTokens, formatStatusLine } from './formatStatusLine.js';

describe('dense statusline: the line', () => {
  it('#37.2 says the context upstream vs held, the saving and the compactions avoided', () => {
    const line = formatStatusLine({
      context: { upstreamTokens: 41_200, clientTokens: 156_400 },
      billedCost: 62_000,
      passThroughCost: 100_000,
      compactionsAvoided: 2,
    });
    expect(line).toBe('dense ▸ 41k upstream / 156k held · saved 38% · 2 compactions avoided');
  });

  it('#37.2 one compaction is singular; none and an unpriced session are left out', () => {
    const base = { context: { upstreamTokens: 900, clientTokens: 1_499 }, billedCost: 0 };
    expect(formatStatusLine({ ...base, passThroughCost: 0, compactionsAvoided: 1 })).toBe(
      'dense ▸ 900 upstream / 1k held · 1 compaction avoided',
    );
    expect(formatStatusLine({ ...base, passThroughCost: 0, compactionsAvoided: 0 })).toBe(
      'dense ▸ 900 upstream / 1k held',
    );
  });

  it('#37.2 a session that cost more than passing through says so; one seen but not metered too', () => {
    expect(
      formatStatusLine({
        context: { upstreamTokens: 10_000, clientTokens: 10_000 },
        billedCost: 103,
        passThroughCost: 100,
        compactionsAvoided: 0,
      }),
    ).toBe('dense ▸ 10k upstream / 10k held · cost +3%');
    expect(
      formatStatusLine({
        context: undefined,
        billedCost: 0,
        passThroughCost: 0,
        compactionsAvoided: 0,
      }),
    ).toBe('dense ▸ no reply metered yet');
  });

  it('#37.2 tokens read as units, thousands and millions', () => {
    expect(
      [0, 999, 1_000, 41_499, 999_499, 999_500, 1_234_567, 12_600_000].map(compactTokens),
    ).toEqual(['0', '999', '1k', '41k', '999k', '1M', '1.2M', '13M']);
  });
});
