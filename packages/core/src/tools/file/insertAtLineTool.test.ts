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

describe('insert_at_line', () => {
  it('inserts so that the content starts at the given line', async () => {
    const out = okOutput(
      await h.call('insert_at_line', { file_path: 'a.txt', line: 2, content: 'x\ny\n' }),
    );
    expect(out).toBe('Inserted 2 lines into a.txt (now lines 2-3); the file now has 5 lines.');
    expect(await h.read('a.txt')).toBe('1\nx\ny\n2\n3\n');
  });

  it('inserts at the top and appends at number-of-lines + 1', async () => {
    okOutput(await h.call('insert_at_line', { file_path: 'a.txt', line: 1, content: 'top' }));
    okOutput(await h.call('insert_at_line', { file_path: 'a.txt', line: 5, content: 'end' }));
    expect(await h.read('a.txt')).toBe('top\n1\n2\n3\nend\n');
  });

  it('appends to a file without a final newline on a line of its own', async () => {
    await h.write('b.txt', 'last');
    okOutput(await h.call('insert_at_line', { file_path: 'b.txt', line: 2, content: 'more' }));
    expect(await h.read('b.txt')).toBe('last\nmore\n');
  });

  it('inserts into an empty file', async () => {
    await h.write('e.txt', '');
    okOutput(await h.call('insert_at_line', { file_path: 'e.txt', line: 1, content: 'first' }));
    expect(await h.read('e.txt')).toBe('first\n');
  });

  it('keeps a CRLF file CRLF', async () => {
    await h.write('w.txt', 'a\r\nb\r\n');
    okOutput(await h.call('insert_at_line', { file_path: 'w.txt', line: 2, content: 'x\ny' }));
    expect(await h.read('w.txt')).toBe('a\r\nx\r\ny\r\nb\r\n');
  });

  it('refuses a line beyond the end + 1 and a missing file', async () => {
    expect(
      errorText(
        await h.call('insert_at_line', { file_path: 'a.txt', line: 6, content: 'x' }),
        'LINE_OUT_OF_RANGE',
      ),
    ).toContain('Use a line from 1 to 4');
    errorText(
      await h.call('insert_at_line', { file_path: 'none.txt', line: 1, content: 'x' }),
      'FILE_NOT_FOUND',
    );
  });

  it('rejects bad parameters, naming the field', async () => {
    expect(
      errorText(
        await h.call('insert_at_line', { file_path: 'a.txt', line: 0, content: 'x' }),
        'INVALID_PARAMETERS',
      ),
    ).toContain('line');
    expect(
      errorText(
        await h.call('insert_at_line', { file_path: 'a.txt', line: '2', content: 'x' }),
        'INVALID_PARAMETERS',
      ),
    ).toContain('line: expected number, received string');
    expect(
      errorText(
        await h.call('insert_at_line', { file_path: 'a.txt', line: 1 }),
        'INVALID_PARAMETERS',
      ),
    ).toContain('content');
  });

  it('refuses `../`, absolute paths outside and symlinks pointing out', async () => {
    await h.link(path.join(h.outside, 'secret.txt'), 's.txt');
    for (const file_path of [
      '../outside/secret.txt',
      path.join(h.outside, 'secret.txt'),
      's.txt',
    ]) {
      errorText(
        await h.call('insert_at_line', { file_path, line: 1, content: 'x' }),
        'PATH_OUTSIDE_WORKSPACE',
      );
    }
  });

  it('refuses to edit a binary file', async () => {
    await h.write('b.bin', Buffer.from('a\0b\n'));
    errorText(
      await h.call('insert_at_line', { file_path: 'b.bin', line: 1, content: 'x' }),
      'BINARY_FILE',
    );
  });
});
