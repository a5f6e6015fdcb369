import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  createToolHarness,
  errorText,
  okOutput,
  type ToolHarness,
} from '../testing/toolTestHarness.js';
import { TOOL_LIMITS } from '../toolLimits.js';

let h: ToolHarness;
beforeEach(async () => {
  h = await createToolHarness();
  await h.write('src/a.ts', 'function load() {}\nconst x = load();\n');
  await h.write('src/b.md', 'load the docs\r\n');
  await h.write('lib/c.ts', 'nothing here\nLOAD upper\n');
  await h.write('node_modules/d/index.ts', 'load dependency\n');
  await h.write('.git/config', 'load git\n');
});
afterEach(async () => {
  await h.cleanup();
});

describe('grep', () => {
  it('lists matching lines as path:line: text, skipping node_modules and .git', async () => {
    const out = okOutput(await h.call('grep', { pattern: 'load' }));
    expect(out).toBe(
      'src/a.ts:1: function load() {}\nsrc/a.ts:2: const x = load();\nsrc/b.md:1: load the docs',
    );
  });

  it('filters by file name or path glob, and searches one file or directory', async () => {
    expect(okOutput(await h.call('grep', { pattern: 'load', include: '*.md' }))).toBe(
      'src/b.md:1: load the docs',
    );
    expect(okOutput(await h.call('grep', { pattern: 'load', include: 'src/*.{md,txt}' }))).toBe(
      'src/b.md:1: load the docs',
    );
    expect(okOutput(await h.call('grep', { pattern: 'x =', path: 'src/a.ts' }))).toBe(
      'src/a.ts:2: const x = load();',
    );
    expect(
      okOutput(await h.call('grep', { pattern: 'load', path: 'lib', ignore_case: true })),
    ).toBe('lib/c.ts:2: LOAD upper');
  });

  it('supports regular expressions and says when nothing matches', async () => {
    expect(okOutput(await h.call('grep', { pattern: '^const\\s+\\w+' }))).toBe(
      'src/a.ts:2: const x = load();',
    );
    expect(okOutput(await h.call('grep', { pattern: 'zzz' }))).toBe(
      'No matches for /zzz/ in the workspace.',
    );
  });

  it('skips binary files and says how many', async () => {
    await h.write('bin/data', Buffer.from('load\0load'));
    const out = okOutput(await h.call('grep', { pattern: 'load', path: 'bin' }));
    expect(out).toContain('No matches');
    expect(out).toContain('[Not searched: 1 binary files, 0 files over 5 MB.]');
  });

  it('answers an invalid regular expression with INVALID_PATTERN', async () => {
    expect(errorText(await h.call('grep', { pattern: '(unclosed' }), 'INVALID_PATTERN')).toContain(
      'regular expression',
    );
    errorText(await h.call('grep', { pattern: 'x', include: '*.{ts' }), 'INVALID_PATTERN');
  });

  it('rejects bad parameters, naming the field', async () => {
    expect(errorText(await h.call('grep', {}), 'INVALID_PARAMETERS')).toContain(
      'pattern: is required',
    );
    expect(
      errorText(await h.call('grep', { pattern: 'x', path: 3 }), 'INVALID_PARAMETERS'),
    ).toContain('path');
  });

  it('refuses `../`, absolute paths outside and symlinks pointing out, and never follows links out', async () => {
    await h.link(h.outside, 'out');
    await h.link(path.join(h.outside, 'secret.txt'), 'src/leak.txt');
    for (const p of ['..', h.outside, 'out', 'src/leak.txt']) {
      errorText(await h.call('grep', { pattern: 'secret', path: p }), 'PATH_OUTSIDE_WORKSPACE');
    }
    expect(okOutput(await h.call('grep', { pattern: 'secret' }))).toContain('No matches');
  });

  it('caps matches at 500 and says there are more', async () => {
    await h.write('many/m.txt', 'hit\n'.repeat(800));
    const out = okOutput(await h.call('grep', { pattern: 'hit', path: 'many' }));
    const lines = out.split('\n');
    expect(lines.filter((l) => l.startsWith('many/m.txt:'))).toHaveLength(
      TOOL_LIMITS.grepMaxMatches,
    );
    expect(lines.at(-1)).toContain('Showing the first 500 matches; there are more');
  });

  it('cuts very long matching lines', async () => {
    await h.write('wide.txt', `${'w'.repeat(2000)}\n`);
    const out = okOutput(await h.call('grep', { pattern: 'w', path: 'wide.txt' }));
    expect(out).toBe(`wide.txt:1: ${'w'.repeat(500)}… [line cut at 500 characters]`);
  });
});
