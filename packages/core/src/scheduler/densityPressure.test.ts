import { describe, expect, it } from 'vitest';
import { densityPressure } from './densityPressure.js';

describe('densityPressure', () => {
  const base = { tokens: 13_800, thresholdTokens: 13_600, growthPerCall: 150 };

  it('#14.3 the room a batch must make keeps the next call under the threshold', () => {
    expect(densityPressure({ ...base, compressedTokens: undefined })).toEqual({
      pressureRoom: 350,
    });
    expect(densityPressure({ ...base, tokens: 1_000, compressedTokens: undefined })).toEqual({
      pressureRoom: 0,
    });
  });

  it('#23.4 names the compression a pressure batch is priced against, when one could run', () => {
    expect(densityPressure({ ...base, compressedTokens: 8_160 })).toEqual({
      pressureRoom: 350,
      compression: { tokensBefore: 13_800, tokensAfter: 8_160 },
    });
  });
});
