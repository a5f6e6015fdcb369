import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  findFileInclusions,
  formatFileInclusion,
} from '../../core/compression/densityVocabulary.js';
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
  await h.write('README.md', '# readme\n');
  await h.write('src/a.ts', 'export const a = 1;\n');
  await h.write('src/lib/b.ts', 'export const b = 2;');
  await h.write('src/lib/c.md', 'notes\n');
  await h.write('node_modules/dep/index.ts', 'dependency\n');
});
afterEach(async () => {
  await h.cleanup();
});

/** Path and content of each inclusion, parsed with the strategy's own parser. */
function inclusions(output: string): { path: string; body: string }[] {
  return findFileInclusions(output).map((span) => ({
    path: span.filePath,
    body: output.slice(span.start, span.end),
  }));
}

describe('read_many_files', () => {
  it('gives every file its own marker pair, recognised by the density parser', async () => {
    const out = okOutput(
      await h.call('read_many_files', { paths: ['README.md', 'src/a.ts', 'src/lib/b.ts'] }),
    );
    expect(inclusions(out)).toEqual([
      { path: 'README.md', body: `${formatFileInclusion('README.md', '# readme\n')}\n` },
      {
        path: 'src/a.ts',
        body: `${formatFileInclusion('src/a.ts', 'export const a = 1;\n')}\n`,
      },
      { path: 'src/lib/b.ts', body: formatFileInclusion('src/lib/b.ts', 'export const b = 2;\n') },
    ]);
  });

  it('expands globs and directories, skips node_modules, and reads each file once', async () => {
    const out = okOutput(
      await h.call('read_many_files', { paths: ['src/**/*.ts', 'src', './src/a.ts'] }),
    );
    expect(inclusions(out).map((i) => i.path)).toEqual([
      'src/a.ts',
      'src/lib/b.ts',
      'src/lib/c.md',
    ]);
  });

  it('reads node_modules when a pattern names it', async () => {
    const out = okOutput(await h.call('read_many_files', { paths: ['node_modules/**/*.ts'] }));
    expect(inclusions(out).map((i) => i.path)).toEqual(['node_modules/dep/index.ts']);
  });

  it('notes entries that matched nothing, and fails only when nothing was read', async () => {
    const out = okOutput(
      await h.call('read_many_files', { paths: ['README.md', 'missing.ts', '*.nothing'] }),
    );
    expect(out).toContain('[No files found for: missing.ts, *.nothing.]');
    const error = errorText(
      await h.call('read_many_files', { paths: ['missing.ts'] }),
      'NO_FILES_MATCHED',
    );
    expect(error).toContain('missing.ts');
  });

  it('skips binary files with a note', async () => {
    await h.write('img.png', Buffer.from([0x89, 0, 1, 2]));
    const out = okOutput(await h.call('read_many_files', { paths: ['img.png', 'README.md'] }));
    expect(inclusions(out).map((i) => i.path)).toEqual(['README.md']);
    expect(out).toContain('[Skipped img.png: BINARY_FILE');
  });

  it('rejects bad parameters, naming the field', async () => {
    expect(
      errorText(await h.call('read_many_files', { paths: 'README.md' }), 'INVALID_PARAMETERS'),
    ).toContain('paths: expected array, received string');
    expect(
      errorText(await h.call('read_many_files', { paths: [] }), 'INVALID_PARAMETERS'),
    ).toContain('paths');
    expect(
      errorText(await h.call('read_many_files', { paths: [3] }), 'INVALID_PARAMETERS'),
    ).toContain('paths[0]');
  });

  it('refuses `../`, absolute paths and globs outside, and symlinks pointing out', async () => {
    await h.link(path.join(h.outside, 'secret.txt'), 'src/leak.ts');
    await h.link(h.outside, 'out');
    const attempts = [
      ['../outside/secret.txt'],
      [path.join(h.outside, 'secret.txt')],
      ['../outside/*.txt'],
      [`${h.outside}/**`],
      ['src/leak.ts'],
      ['out/secret.txt'],
    ];
    for (const paths of attempts) {
      errorText(await h.call('read_many_files', { paths }), 'PATH_OUTSIDE_WORKSPACE');
    }
    const walked = okOutput(await h.call('read_many_files', { paths: ['**/*'] }));
    expect(walked).not.toContain('secret');
    expect(inclusions(walked).map((i) => i.path)).toEqual([
      'README.md',
      'src/a.ts',
      'src/lib/b.ts',
      'src/lib/c.md',
    ]);
  });

  it('caps the output at 256 KB: cuts the file that crosses the cap and lists the rest', async () => {
    const line = `${'q'.repeat(1023)}\n`;
    await h.write('big/1.txt', line.repeat(200));
    await h.write('big/2.txt', line.repeat(100));
    await h.write('big/3.txt', 'small\n');
    const out = okOutput(await h.call('read_many_files', { paths: ['big'] }));
    const found = inclusions(out);
    expect(found.map((i) => i.path)).toEqual(['big/1.txt', 'big/2.txt']);
    expect(out).toContain(
      '[big/2.txt was cut to lines 1-56 of 100 by the 256 KB output cap; read the rest with read_file offset=56.]',
    );
    expect(out).toContain('[Not included (output cap reached): big/3.txt.');
    expect(Buffer.byteLength(out)).toBeLessThan(TOOL_LIMITS.readMaxBytes + 1024);
  });
});
