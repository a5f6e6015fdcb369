import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { contentToLines, joinLines, splitLines } from './textLines.js';

describe('splitLines / joinLines', () => {
  it('splits into lines and remembers the final newline', () => {
    expect(splitLines('')).toEqual({ lines: [], trailingNewline: false, eol: '\n' });
    expect(splitLines('a\nb\n')).toEqual({ lines: ['a', 'b'], trailingNewline: true, eol: '\n' });
    expect(splitLines('a\nb')).toEqual({ lines: ['a', 'b'], trailingNewline: false, eol: '\n' });
    expect(splitLines('\n')).toEqual({ lines: [''], trailingNewline: true, eol: '\n' });
  });

  it('keeps carriage returns on CRLF lines and reports the CRLF ending', () => {
    expect(splitLines('a\r\nb\r\n')).toEqual({
      lines: ['a\r', 'b\r'],
      trailingNewline: true,
      eol: '\r\n',
    });
  });

  it('round-trips any text exactly', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('a', 'b', '\n', '\r', ' ') }), (text) => {
        expect(joinLines(splitLines(text))).toBe(text);
      }),
      { numRuns: 300 },
    );
  });
});

describe('contentToLines', () => {
  it('treats one final newline as the end of the last line, not an extra line', () => {
    expect(contentToLines('x\ny\n', '\n')).toEqual(['x', 'y']);
    expect(contentToLines('x', '\n')).toEqual(['x']);
    expect(contentToLines('', '\n')).toEqual(['']);
  });

  it("gives inserted lines the file's CRLF ending", () => {
    expect(contentToLines('x\ny', '\r\n')).toEqual(['x\r', 'y\r']);
    expect(contentToLines('x\r\ny\r\n', '\r\n')).toEqual(['x\r', 'y\r']);
  });
});
