import { readFile } from 'node:fs/promises';
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
  await h.write('a.txt', '1\n2\n3\n');
});
afterEach(async () => {
  await h.cleanup();
});

describe('delete_line_range', () => {
  it('deletes an inclusive range', async () => {
    const out = okOutput(
      await h.call('delete_line_range', { file_path: 'a.txt', start_line: 2, end_line: 2 }),
    );
    expect(out).toBe('Deleted lines 2-2 (1 line) from a.txt; the file now has 2 lines.');
    expect(await h.read('a.txt')).toBe('1\n3\n');
  });

  it('treats an end_line past the end as "to the end" and says so', async () => {
    const out = okOutput(
      await h.call('delete_line_range', { file_path: 'a.txt', start_line: 2, end_line: 99 }),
    );
    expect(out).toContain('(the file had only 3 lines)');
    expect(await h.read('a.txt')).toBe('1\n');
  });

  it('can delete every line', async () => {
    okOutput(await h.call('delete_line_range', { file_path: 'a.txt', start_line: 1, end_line: 3 }));
    expect(await h.read('a.txt')).toBe('');
  });

  it('refuses a start_line past the end and changes nothing', async () => {
    errorText(
      await h.call('delete_line_range', { file_path: 'a.txt', start_line: 4, end_line: 4 }),
      'LINE_OUT_OF_RANGE',
    );
    expect(await h.read('a.txt')).toBe('1\n2\n3\n');
  });

  it('rejects bad parameters, naming the field', async () => {
    expect(
      errorText(
        await h.call('delete_line_range', { file_path: 'a.txt', start_line: 3, end_line: 1 }),
        'INVALID_PARAMETERS',
      ),
    ).toContain('end_line');
    expect(
      errorText(
        await h.call('delete_line_range', { file_path: 'a.txt', end_line: 1 }),
        'INVALID_PARAMETERS',
      ),
    ).toContain('start_line: is required');
  });

  it('refuses `../`, absolute paths outside and symlinks pointing out', async () => {
    await h.link(h.outside, 'out');
    for (const file_path of [
      '../outside/secret.txt',
      path.join(h.outside, 'secret.txt'),
      'out/secret.txt',
    ]) {
      errorText(
        await h.call('delete_line_range', { file_path, start_line: 1, end_line: 1 }),
        'PATH_OUTSIDE_WORKSPACE',
      );
    }
    expect(await readFile(path.join(h.outside, 'secret.txt'), 'utf8')).toBe('secret\n');
  });

  it('refuses to edit a binary file', async () => {
    await h.write('b.bin', Buffer.from('a\0b\n'));
    errorText(
      await h.call('delete_line_range', { file_path: 'b.bin', start_line: 1, end_line: 1 }),
      'BINARY_FILE',
    );
  });
});
