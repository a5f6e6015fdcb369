import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { parseAtReferences } from './parseAtReferences.js';

const paths = (text: string): string[] => parseAtReferences(text).map((r) => r.path);

describe('parseAtReferences', () => {
  it('finds several plain references with their offsets', () => {
    const text = 'compare @src/a.ts and @lib/b.ts';
    expect(parseAtReferences(text)).toEqual([
      { path: 'src/a.ts', start: 8, end: 17 },
      { path: 'lib/b.ts', start: 22, end: 31 },
    ]);
  });

  it('reads quoted paths with spaces and backslash-escaped spaces', () => {
    expect(paths('see @"docs/my notes.md" and @\'x y.txt\' and @a\\ b.ts')).toEqual([
      'docs/my notes.md',
      'x y.txt',
      'a b.ts',
    ]);
  });

  it('keeps globs whole', () => {
    expect(paths('all of @src/**/*.{ts,tsx} please')).toEqual(['src/**/*.{ts,tsx}']);
  });

  it('drops sentence punctuation after an unquoted path but keeps dot-only paths', () => {
    expect(paths('read @a.ts, then @b.md. Also (@c.txt) and @..')).toEqual([
      'a.ts',
      'b.md',
      'c.txt',
      '..',
    ]);
  });

  it('ignores e-mail addresses, a lone @, @@ and an unclosed quote falls back to a bare token', () => {
    expect(paths('mail me@example.com @ now @@x')).toEqual([]);
    expect(paths('@"unclosed.ts')).toEqual(['"unclosed.ts']);
  });

  it('a reference at the very start counts', () => {
    expect(paths('@README.md summarize')).toEqual(['README.md']);
  });

  test.prop([fc.string({ maxLength: 200 })], { numRuns: 300 })(
    'never throws; references are ordered, disjoint, start at an @ and have a non-blank path',
    (text) => {
      const refs = parseAtReferences(text);
      let previousEnd = 0;
      for (const ref of refs) {
        expect(text[ref.start]).toBe('@');
        expect(ref.start).toBeGreaterThanOrEqual(previousEnd);
        expect(ref.end).toBeGreaterThan(ref.start);
        expect(ref.end).toBeLessThanOrEqual(text.length);
        expect(ref.path.trim()).not.toBe('');
        previousEnd = ref.end;
      }
    },
  );
});
