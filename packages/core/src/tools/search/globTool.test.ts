import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  createToolHarness,
  errorText,
  okOutput,
  type ToolHarness,
} from '../testing/toolTestHarness.js';

let h: ToolHarness;
beforeEach(async () => {
  h = await createToolHarness();
  for (const file of [
    'a.ts',
    'b.tsx',
    'c.md',
    'src/x.ts',
    'src/deep/y.ts',
    'src/deep/z.js',
    'node_modules/m/i.ts',
    '.git/HEAD',
  ]) {
    await h.write(file, 'x\n');
  }
});
afterEach(async () => {
  await h.cleanup();
});

const list = (out: string): string[] => out.split('\n');

describe('glob', () => {
  it('matches ** across directories, skipping node_modules and .git', async () => {
    expect(list(okOutput(await h.call('glob', { pattern: '**/*.ts' })))).toEqual([
      'a.ts',
      'src/x.ts',
      'src/deep/y.ts',
    ]);
  });

  it('matches *, ? and {a,b} within a segment', async () => {
    expect(list(okOutput(await h.call('glob', { pattern: '*.{ts,tsx}' })))).toEqual([
      'a.ts',
      'b.tsx',
    ]);
    expect(list(okOutput(await h.call('glob', { pattern: 'src/deep/?.?s' })))).toEqual([
      'src/deep/y.ts',
      'src/deep/z.js',
    ]);
  });

  it('searches from `path`, and accepts absolute patterns inside the workspace', async () => {
    expect(list(okOutput(await h.call('glob', { pattern: '*.ts', path: 'src' })))).toEqual([
      'src/x.ts',
    ]);
    expect(list(okOutput(await h.call('glob', { pattern: `${h.root}/src/**/*.js` })))).toEqual([
      'src/deep/z.js',
    ]);
  });

  it('looks into node_modules when the pattern names it', async () => {
    expect(list(okOutput(await h.call('glob', { pattern: 'node_modules/**/*.ts' })))).toEqual([
      'node_modules/m/i.ts',
    ]);
  });

  it('says when nothing matches', async () => {
    expect(okOutput(await h.call('glob', { pattern: '**/*.rs' }))).toBe(
      'No files match "**/*.rs" in the workspace.',
    );
  });

  it('answers an invalid pattern with INVALID_PATTERN', async () => {
    errorText(await h.call('glob', { pattern: '*.{ts' }), 'INVALID_PATTERN');
    expect(
      errorText(await h.call('glob', { pattern: 'src/*/../../*' }), 'INVALID_PATTERN'),
    ).toContain('..');
  });

  it('rejects bad parameters, naming the field', async () => {
    expect(errorText(await h.call('glob', { path: 'src' }), 'INVALID_PARAMETERS')).toContain(
      'pattern: is required',
    );
    expect(errorText(await h.call('glob', { pattern: ['*'] }), 'INVALID_PARAMETERS')).toContain(
      'pattern: expected string',
    );
  });

  it('refuses patterns and paths outside, and does not follow symlinks out', async () => {
    await h.link(h.outside, 'out');
    await h.link(path.join(h.outside, 'secret.txt'), 'leak.txt');
    errorText(await h.call('glob', { pattern: '../outside/*' }), 'PATH_OUTSIDE_WORKSPACE');
    errorText(await h.call('glob', { pattern: `${h.outside}/*.txt` }), 'PATH_OUTSIDE_WORKSPACE');
    errorText(await h.call('glob', { pattern: '*', path: '..' }), 'PATH_OUTSIDE_WORKSPACE');
    errorText(await h.call('glob', { pattern: '*.txt', path: 'out' }), 'PATH_OUTSIDE_WORKSPACE');
    expect(okOutput(await h.call('glob', { pattern: '**/*.txt' }))).toContain('No files match');
  });

  it('caps the list at 1,000 files and says so', async () => {
    await Promise.all(
      Array.from({ length: 1005 }, (_, i) =>
        h.write(`many/f${String(i).padStart(4, '0')}.txt`, ''),
      ),
    );
    const lines = list(okOutput(await h.call('glob', { pattern: 'many/*.txt' })));
    expect(lines).toHaveLength(1001);
    expect(lines[999]).toBe('many/f0999.txt');
    expect(lines[1000]).toContain('Showing the first 1000 matches; more files match');
  });
});
