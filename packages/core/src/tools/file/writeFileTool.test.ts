import { chmod, readdir, stat } from 'node:fs/promises';
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

describe('write_file', () => {
  it('creates a file and its parent directories', async () => {
    const out = okOutput(await h.call('write_file', { file_path: 'a/b/c.ts', content: 'x\ny\n' }));
    expect(out).toBe('Created a/b/c.ts (2 lines).');
    expect(await h.read('a/b/c.ts')).toBe('x\ny\n');
  });

  it('overwrites a file, keeping its mode and leaving no temp files', async () => {
    const file = await h.write('run.sh', 'old\n');
    await chmod(file, 0o755);
    expect(okOutput(await h.call('write_file', { file_path: 'run.sh', content: 'new\n' }))).toBe(
      'Overwrote run.sh (1 line).',
    );
    expect(await h.read('run.sh')).toBe('new\n');
    expect((await stat(file)).mode & 0o777).toBe(0o755);
    expect(await readdir(h.root)).toEqual(['run.sh']);
  });

  it('writes an empty file', async () => {
    expect(okOutput(await h.call('write_file', { file_path: 'e', content: '' }))).toBe(
      'Created e (0 lines).',
    );
    expect(await h.read('e')).toBe('');
  });

  it('writes through a symlink inside the workspace to its target', async () => {
    await h.write('real.txt', 'old\n');
    await h.link(path.join(h.root, 'real.txt'), 'alias.txt');
    okOutput(await h.call('write_file', { file_path: 'alias.txt', content: 'new\n' }));
    expect(await h.read('real.txt')).toBe('new\n');
  });

  it('refuses to overwrite a directory', async () => {
    await h.write('dir/x', 'x');
    errorText(await h.call('write_file', { file_path: 'dir', content: 'x' }), 'NOT_A_FILE');
  });

  it('rejects bad parameters, naming the field', async () => {
    expect(
      errorText(await h.call('write_file', { file_path: 'a' }), 'INVALID_PARAMETERS'),
    ).toContain('content: is required');
    expect(
      errorText(await h.call('write_file', { file_path: 'a', content: 5 }), 'INVALID_PARAMETERS'),
    ).toContain('content: expected string, received number');
    expect(
      errorText(await h.call('write_file', { file_path: '', content: '' }), 'INVALID_PARAMETERS'),
    ).toContain('file_path');
  });

  it('refuses `../`, absolute paths outside, symlinked directories out and dangling links out', async () => {
    await h.link(h.outside, 'out');
    await h.link(path.join(h.outside, 'planted.txt'), 'planted');
    const attempts = [
      '../outside/new.txt',
      path.join(h.outside, 'new.txt'),
      'out/new.txt',
      'planted',
      'src/../../outside/new.txt',
    ];
    for (const file_path of attempts) {
      errorText(
        await h.call('write_file', { file_path, content: 'pwned' }),
        'PATH_OUTSIDE_WORKSPACE',
      );
    }
    expect(await readdir(h.outside)).toEqual(['secret.txt']);
  });
});
