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
});
afterEach(async () => {
  await h.cleanup();
});

describe('list_directory', () => {
  it('lists directories first, then files, with symlinks marked', async () => {
    await h.write('b.txt', '');
    await h.write('a.txt', '');
    await h.write('zdir/x', '');
    await h.write('adir/x', '');
    await h.link(path.join(h.root, 'a.txt'), 'link');
    expect(okOutput(await h.call('list_directory', {}))).toBe('adir/\nzdir/\na.txt\nb.txt\nlink@');
    expect(okOutput(await h.call('list_directory', { path: 'adir' }))).toBe('x');
  });

  it('reports an empty directory, a file and a missing path', async () => {
    await h.write('e/.keep', '');
    await h.write('f.txt', '');
    expect(okOutput(await h.call('list_directory', { path: 'e' }))).toBe('.keep');
    errorText(await h.call('list_directory', { path: 'f.txt' }), 'NOT_A_DIRECTORY');
    errorText(await h.call('list_directory', { path: 'missing' }), 'FILE_NOT_FOUND');
  });

  it('says when the directory is empty', async () => {
    expect(okOutput(await h.call('list_directory', { path: '.' }))).toBe('. is empty.');
  });

  it('rejects bad parameters, naming the field', async () => {
    expect(errorText(await h.call('list_directory', { path: 1 }), 'INVALID_PARAMETERS')).toContain(
      'path: expected string, received number',
    );
  });

  it('refuses `../`, absolute paths outside and symlinks pointing out', async () => {
    await h.link(h.outside, 'out');
    for (const p of ['..', h.outside, 'out']) {
      errorText(await h.call('list_directory', { path: p }), 'PATH_OUTSIDE_WORKSPACE');
    }
  });

  it('caps the listing at 1,000 entries and says so', async () => {
    await Promise.all(Array.from({ length: 1010 }, (_, i) => h.write(`big/${i}.txt`, '')));
    const lines = okOutput(await h.call('list_directory', { path: 'big' })).split('\n');
    expect(lines).toHaveLength(1001);
    expect(lines[1000]).toBe(
      '[Showing 1000 of 1010 entries. Use glob with a pattern to find specific files.]',
    );
  });
});
