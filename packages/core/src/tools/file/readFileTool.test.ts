import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { nodeFileSystem } from '../ports/nodeFileSystem.js';
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
});
afterEach(async () => {
  await h.cleanup();
});

const numbered = (count: number): string =>
  Array.from({ length: count }, (_, i) => `line ${i + 1}`).join('\n') + '\n';

describe('read_file', () => {
  it('returns a whole file exactly, with no header', async () => {
    const text = 'const a = 1;\r\n\tindented  \n';
    await h.write('src/a.ts', text);
    expect(okOutput(await h.call('read_file', { file_path: 'src/a.ts' }))).toBe(text);
  });

  it('accepts an absolute path inside the workspace', async () => {
    const file = await h.write('a.txt', 'x\n');
    expect(okOutput(await h.call('read_file', { file_path: file }))).toBe('x\n');
  });

  it('returns a window with a header saying which lines and where to continue', async () => {
    await h.write('a.txt', numbered(10));
    const out = okOutput(await h.call('read_file', { file_path: 'a.txt', offset: 2, limit: 3 }));
    expect(out).toBe(
      '[Partial content of a.txt: lines 3-5 of 10. To read more, call read_file with offset=5.]\nline 3\nline 4\nline 5',
    );
  });

  it('says when a window reaches the end of the file', async () => {
    await h.write('a.txt', numbered(4));
    const out = okOutput(await h.call('read_file', { file_path: 'a.txt', offset: 2 }));
    expect(out).toContain('lines 3-4 of 4. This is the end of the file.');
  });

  it('numbers lines on request', async () => {
    await h.write('a.txt', numbered(12));
    const out = okOutput(
      await h.call('read_file', { file_path: 'a.txt', offset: 8, limit: 2, line_numbers: true }),
    );
    expect(out.split('\n').slice(1)).toEqual([' 9| line 9', '10| line 10']);
  });

  it('reports an empty file and an offset past the end', async () => {
    await h.write('empty.txt', '');
    expect(okOutput(await h.call('read_file', { file_path: 'empty.txt' }))).toBe(
      '[empty.txt is empty.]',
    );
    await h.write('a.txt', numbered(3));
    expect(
      errorText(await h.call('read_file', { file_path: 'a.txt', offset: 3 }), 'LINE_OUT_OF_RANGE'),
    ).toContain('has 3 lines');
  });

  it('rejects bad parameters, naming the field', async () => {
    expect(errorText(await h.call('read_file', { path: 'a.txt' }), 'INVALID_PARAMETERS')).toContain(
      'file_path',
    );
    expect(errorText(await h.call('read_file', { file_path: 7 }), 'INVALID_PARAMETERS')).toContain(
      'file_path: expected string, received number',
    );
    expect(
      errorText(await h.call('read_file', { file_path: 'a', limit: 0 }), 'INVALID_PARAMETERS'),
    ).toContain('limit');
    expect(
      errorText(await h.call('read_file', { file_path: 'a', offset: 1.5 }), 'INVALID_PARAMETERS'),
    ).toContain('offset');
  });

  it('refuses `../`, absolute paths outside and symlinks pointing out', async () => {
    await h.link(path.join(h.outside, 'secret.txt'), 'innocent.txt');
    for (const file_path of [
      '../outside/secret.txt',
      path.join(h.outside, 'secret.txt'),
      'innocent.txt',
    ]) {
      const error = errorText(await h.call('read_file', { file_path }), 'PATH_OUTSIDE_WORKSPACE');
      expect(error).not.toContain('secret\n');
    }
  });

  it('reports missing files, directories and binary files clearly', async () => {
    expect(
      errorText(await h.call('read_file', { file_path: 'nope.ts' }), 'FILE_NOT_FOUND'),
    ).toContain('nope.ts does not exist');
    await h.write('dir/x.txt', 'x');
    expect(errorText(await h.call('read_file', { file_path: 'dir' }), 'NOT_A_FILE')).toContain(
      'list_directory',
    );
    await h.write('img.png', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01]));
    expect(errorText(await h.call('read_file', { file_path: 'img.png' }), 'BINARY_FILE')).toContain(
      'img.png is a binary file',
    );
  });

  it('refuses files over the size limit without reading them', async () => {
    await h.write('big.log', 'small really\n');
    const fs = {
      ...nodeFileSystem,
      stat: async (p: string) => ({
        ...(await nodeFileSystem.stat(p)),
        size: TOOL_LIMITS.maxFileBytes + 1,
      }),
      readFile: () => Promise.reject(new Error('must not read')),
    };
    expect(
      errorText(await h.call('read_file', { file_path: 'big.log' }, { fs }), 'FILE_TOO_LARGE'),
    ).toContain('run_shell_command');
  });

  it('caps a long file at 2,000 lines and says how to read on', async () => {
    await h.write('long.txt', numbered(5000));
    const out = okOutput(await h.call('read_file', { file_path: 'long.txt' }));
    const [header, ...lines] = out.split('\n');
    expect(header).toBe(
      '[Partial content of long.txt: lines 1-2000 of 5000; output capped at 2000 lines per call. To read more, call read_file with offset=2000.]',
    );
    expect(lines).toHaveLength(2000);
    expect(lines.at(-1)).toBe('line 2000');
    const limited = okOutput(
      await h.call('read_file', { file_path: 'long.txt', offset: 4990, limit: 9999 }),
    );
    expect(limited.split('\n')).toHaveLength(11);
  });

  it('caps output at 256 KB on whole lines and says so', async () => {
    const line = 'x'.repeat(999);
    await h.write('wide.txt', `${line}\n`.repeat(400));
    const out = okOutput(await h.call('read_file', { file_path: 'wide.txt' }));
    const [header, ...lines] = out.split('\n');
    expect(header).toContain('lines 1-262 of 400; output capped at 256 KB per call');
    expect(header).toContain('offset=262');
    expect(lines).toHaveLength(262);
    expect(lines.every((l) => l === line)).toBe(true);
    expect(Buffer.byteLength(out)).toBeLessThanOrEqual(TOOL_LIMITS.readMaxBytes + 200);
  });

  it('cuts a single line longer than the cap and says so', async () => {
    await h.write('min.js', `${'y'.repeat(300 * 1024)}\nnext\n`);
    const out = okOutput(await h.call('read_file', { file_path: 'min.js' }));
    const [header, body] = out.split('\n');
    expect(header).toContain('line 1 is longer than the 262144-byte output cap and was cut');
    expect(header).toContain('offset=1');
    expect(body).toHaveLength(TOOL_LIMITS.readMaxBytes);
  });
});
