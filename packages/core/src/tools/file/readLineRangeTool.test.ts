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
  await h.write('a.txt', Array.from({ length: 10 }, (_, i) => `line ${i + 1}`).join('\n') + '\n');
});
afterEach(async () => {
  await h.cleanup();
});

describe('read_line_range', () => {
  it('returns exactly the requested lines', async () => {
    expect(
      okOutput(await h.call('read_line_range', { file_path: 'a.txt', start_line: 3, end_line: 4 })),
    ).toBe('line 3\nline 4');
  });

  it('numbers lines on request', async () => {
    const out = okOutput(
      await h.call('read_line_range', {
        file_path: 'a.txt',
        start_line: 9,
        end_line: 10,
        line_numbers: true,
      }),
    );
    expect(out).toBe(' 9| line 9\n10| line 10');
  });

  it('clamps an end_line past the end and says so', async () => {
    const out = okOutput(
      await h.call('read_line_range', { file_path: 'a.txt', start_line: 9, end_line: 50 }),
    );
    expect(out).toBe('[a.txt has only 10 lines.]\nline 9\nline 10');
  });

  it('refuses a start_line past the end', async () => {
    errorText(
      await h.call('read_line_range', { file_path: 'a.txt', start_line: 11, end_line: 12 }),
      'LINE_OUT_OF_RANGE',
    );
  });

  it('rejects bad parameters, naming the field', async () => {
    const reversed = errorText(
      await h.call('read_line_range', { file_path: 'a.txt', start_line: 5, end_line: 2 }),
      'INVALID_PARAMETERS',
    );
    expect(reversed).toContain('end_line: end_line must be greater than or equal to start_line');
    expect(
      errorText(
        await h.call('read_line_range', { file_path: 'a.txt', start_line: 0, end_line: 2 }),
        'INVALID_PARAMETERS',
      ),
    ).toContain('start_line');
    expect(
      errorText(
        await h.call('read_line_range', { file_path: 'a.txt', start_line: 1 }),
        'INVALID_PARAMETERS',
      ),
    ).toContain('end_line: is required');
  });

  it('refuses `../`, absolute paths outside and symlinks pointing out', async () => {
    await h.link(h.outside, 'out');
    for (const file_path of [
      '../outside/secret.txt',
      path.join(h.outside, 'secret.txt'),
      'out/secret.txt',
    ]) {
      errorText(
        await h.call('read_line_range', { file_path, start_line: 1, end_line: 1 }),
        'PATH_OUTSIDE_WORKSPACE',
      );
    }
  });

  it('refuses binary files', async () => {
    await h.write('b.bin', Buffer.from([1, 2, 0, 3]));
    errorText(
      await h.call('read_line_range', { file_path: 'b.bin', start_line: 1, end_line: 1 }),
      'BINARY_FILE',
    );
  });

  it('caps a huge range at 2,000 lines and says where to continue', async () => {
    await h.write('long.txt', 'z\n'.repeat(3000));
    const out = okOutput(
      await h.call('read_line_range', { file_path: 'long.txt', start_line: 101, end_line: 3000 }),
    );
    const [header, ...lines] = out.split('\n');
    expect(header).toBe(
      '[showing lines 101-2100; output capped at 2000 lines per call; to read more, call read_line_range with start_line=2101.]',
    );
    expect(lines).toHaveLength(2000);
  });
});
