import { describe, expect, it } from 'vitest';
import { escapeXml } from './svgText.js';

describe('escapeXml', () => {
  it('replaces the five markup characters with entities', () => {
    expect(escapeXml(`<a href="x">Tom & Jerry's</a>`)).toBe(
      '&lt;a href=&quot;x&quot;&gt;Tom &amp; Jerry&apos;s&lt;/a&gt;',
    );
  });

  it('escapes an existing entity again rather than trusting it', () => {
    expect(escapeXml('&amp;')).toBe('&amp;amp;');
  });

  it('drops characters XML 1.0 forbids but keeps tabs, newlines and astral characters', () => {
    expect(escapeXml('a\u0000b\u0007c\td\ne\u{1F600}')).toBe('abc\td\ne\u{1F600}');
  });

  it('drops lone surrogates', () => {
    expect(escapeXml('x\uD800y\uDC00z')).toBe('xyz');
  });
});
