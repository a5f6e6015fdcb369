import { describe, expect, it } from 'vitest';
import { extractPatch, parseApplyPatch } from './applyPatch.js';

const PATCH = [
  '*** Begin Patch',
  '*** Add File: docs/new.md',
  '+# New',
  '+second line',
  '*** Update File: src/app.ts',
  '@@ function main',
  ' const a = 1;',
  '-const b = 2;',
  '+const b = 3;',
  '@@',
  '-old tail',
  '+new tail',
  '*** End of File',
  '*** Update File: src/old.ts',
  '*** Move to: src/renamed.ts',
  '@@',
  '-x',
  '+y',
  '*** Delete File: junk.txt',
  '*** End Patch',
].join('\n');

describe('parseApplyPatch', () => {
  it('yields one operation per file, in patch order', () => {
    expect(parseApplyPatch(PATCH)).toEqual([
      { kind: 'add', path: 'docs/new.md', content: '# New\nsecond line' },
      {
        kind: 'update',
        path: 'src/app.ts',
        oldText: 'const a = 1;\nconst b = 2;\nold tail',
        newText: 'const a = 1;\nconst b = 3;\nnew tail',
      },
      { kind: 'update', path: 'src/old.ts', moveTo: 'src/renamed.ts', oldText: 'x', newText: 'y' },
      { kind: 'delete', path: 'junk.txt' },
    ]);
  });

  it('reads nothing from text that is not a patch', () => {
    expect(parseApplyPatch('just words')).toEqual([]);
  });

  it('keeps the files it could read from a truncated patch', () => {
    expect(parseApplyPatch('*** Begin Patch\n*** Add File: a.txt\n+hi')).toEqual([
      { kind: 'add', path: 'a.txt', content: 'hi' },
    ]);
  });
});

describe('extractPatch', () => {
  it('finds the envelope inside a heredoc shell command', () => {
    const command = `apply_patch <<'EOF'\n${PATCH}\nEOF`;
    expect(extractPatch(command)).toBe(PATCH);
  });

  it('is undefined without an envelope', () => {
    expect(extractPatch('apply_patch')).toBeUndefined();
  });
});
