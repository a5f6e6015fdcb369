import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { decodePieces, MAX_DECODED_PIECES, PIECE_BYTES } from './decodePieces.js';

/** JSON-ish text with multi-byte and astral characters and many `{`. */
const TEXT = fc.string({
  unit: fc.constantFrom('a', '{', '"', 'é', '→', '😀', '\n', '}'),
  maxLength: 400,
});

describe('decodePieces', () => {
  test.prop([fc.array(TEXT, { minLength: 1, maxLength: 400 })], { numRuns: 60 })(
    '#36 the pieces joined are the bytes decoded, each after the first starts with a `{`, and they are few',
    (parts) => {
      const text = parts.join('');
      const pieces = decodePieces(Buffer.from(text, 'utf8'));
      expect(pieces.join('')).toBe(text);
      for (const piece of pieces.slice(1)) expect(piece[0]).toBe('{');
      expect(pieces.length).toBeLessThanOrEqual(MAX_DECODED_PIECES);
    },
  );

  it('#36 a long non-ASCII text is cut into pieces under 64K characters; an ASCII one is one piece', () => {
    const line = '{"line":"  12→ const total = sum(values); ✓"}\n';
    const text = line.repeat(Math.ceil((6 * PIECE_BYTES) / line.length));
    const pieces = decodePieces(Buffer.from(text, 'utf8'));
    expect(pieces.length).toBeGreaterThanOrEqual(5);
    for (const piece of pieces) expect(piece.length).toBeLessThan(64 * 1024);
    expect(pieces.join('')).toBe(text);
    const ascii = text.replaceAll('→', '->').replaceAll('✓', 'ok');
    expect(decodePieces(Buffer.from(ascii))).toEqual([ascii]);
    expect(decodePieces(Buffer.alloc(0))).toEqual(['']);
  });
});
