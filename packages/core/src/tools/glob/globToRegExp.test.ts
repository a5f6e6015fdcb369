import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { globToRegExp, hasGlobChars, InvalidGlobError, splitGlobBase } from './globToRegExp.js';

const cases: readonly (readonly [string, string, boolean])[] = [
  ['*.ts', 'a.ts', true],
  ['*.ts', 'src/a.ts', false],
  ['*.ts', '.eslintrc.ts', true],
  ['**/*.ts', 'a.ts', true],
  ['**/*.ts', 'src/deep/a.ts', true],
  ['**/*.ts', 'src/a.tsx', false],
  ['src/**', 'src/a/b/c.md', true],
  ['src/**', 'lib/a.md', false],
  ['src/**/test/*.ts', 'src/test/a.ts', true],
  ['src/**/test/*.ts', 'src/x/y/test/a.ts', true],
  ['src/**/test/*.ts', 'src/x/test/y/a.ts', false],
  ['a?c', 'abc', true],
  ['a?c', 'a/c', false],
  ['a?c', 'abbc', false],
  ['*.{ts,tsx}', 'a.tsx', true],
  ['*.{ts,tsx}', 'a.js', false],
  ['{src,lib}/**/*.{ts,md}', 'lib/x/y.md', true],
  ['{a,{b,c}d}.txt', 'cd.txt', true],
  ['{a,{b,c}d}.txt', 'c.txt', false],
  ['[abc].ts', 'b.ts', true],
  ['[!abc].ts', 'b.ts', false],
  ['[!abc].ts', 'z.ts', true],
  ['[a-c]x', 'bx', true],
  ['a**b', 'axxb', true],
  ['a**b', 'ax/xb', false],
  ['file(1).txt', 'file(1).txt', true],
  ['a+b.c', 'aab.c', false],
  ['\\*.ts', '*.ts', true],
  ['\\*.ts', 'a.ts', false],
  ['[id].tsx', 'i.tsx', true],
];

describe('globToRegExp', () => {
  it.each(cases)('%s against %s → %s', (pattern, candidate, expected) => {
    expect(globToRegExp(pattern).test(candidate)).toBe(expected);
  });

  it('rejects an unclosed brace with a typed error', () => {
    expect(() => globToRegExp('*.{ts,js')).toThrow(InvalidGlobError);
  });

  it('treats an unclosed bracket as a literal', () => {
    expect(globToRegExp('a[b').test('a[b')).toBe(true);
  });

  it('matches a pattern without metacharacters exactly itself, whatever regex syntax it holds', () => {
    const unit = fc.constantFrom(
      'a',
      'B',
      '.',
      '+',
      '(',
      ')',
      '^',
      '$',
      '|',
      '/',
      '-',
      ']',
      '}',
      ',',
    );
    fc.assert(
      fc.property(fc.string({ unit, minLength: 1 }), fc.string({ unit }), (pattern, other) => {
        const regex = globToRegExp(pattern);
        expect(regex.test(pattern)).toBe(true);
        expect(regex.test(other)).toBe(other === pattern);
      }),
      { numRuns: 300 },
    );
  });

  it('makes `*` never cross a slash and `**/` cross any number', () => {
    const name = fc.stringMatching(/^[a-z]{1,5}$/);
    fc.assert(
      fc.property(fc.array(name, { minLength: 1, maxLength: 5 }), (segments) => {
        const candidate = `${segments.join('/')}.ts`;
        expect(globToRegExp('*.ts').test(candidate)).toBe(segments.length === 1);
        expect(globToRegExp('**/*.ts').test(candidate)).toBe(true);
      }),
      { numRuns: 200 },
    );
  });
});

describe('hasGlobChars / splitGlobBase', () => {
  it('recognises glob metacharacters', () => {
    expect(hasGlobChars('src/a.ts')).toBe(false);
    expect(['*.ts', 'a?', '[ab]', '{a,b}'].every(hasGlobChars)).toBe(true);
  });

  it('splits off the literal leading directories', () => {
    expect(splitGlobBase('src/**/*.ts')).toEqual({ base: 'src', rest: '**/*.ts' });
    expect(splitGlobBase('*.ts')).toEqual({ base: '.', rest: '*.ts' });
    expect(splitGlobBase('../x/*.md')).toEqual({ base: '../x', rest: '*.md' });
    expect(splitGlobBase('/abs/dir/*.md')).toEqual({ base: '/abs/dir', rest: '*.md' });
    expect(splitGlobBase('/*.md')).toEqual({ base: '/', rest: '*.md' });
    expect(splitGlobBase('a/b.ts')).toEqual({ base: 'a', rest: 'b.ts' });
  });
});
