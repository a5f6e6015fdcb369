import { describe, expect, it } from 'vitest';
import { colorProp, themeFromEnv, toneProps } from './theme.js';

describe('theme', () => {
  it('NO_COLOR (non-empty) turns colour off', () => {
    expect(themeFromEnv({})).toEqual({ color: true });
    expect(themeFromEnv({ NO_COLOR: '' })).toEqual({ color: true });
    expect(themeFromEnv({ NO_COLOR: '1' })).toEqual({ color: false });
  });

  it('without colour, tones keep bold and dim but add no colour', () => {
    const plain = { color: false };
    const colored = { color: true };
    expect(toneProps('error', colored)).toEqual({ color: 'red' });
    expect(toneProps('error', plain)).toEqual({});
    expect(toneProps('heading', plain)).toEqual({ bold: true });
    expect(toneProps('dim', plain)).toEqual({ dimColor: true });
    expect(colorProp(plain, 'green')).toEqual({});
    expect(colorProp(colored, 'green')).toEqual({ color: 'green' });
  });
});
