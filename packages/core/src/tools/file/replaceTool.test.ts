import path from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  createToolHarness,
  errorText,
  okOutput,
  type ToolHarness,
} from '../testing/toolTestHarness.js';
import { countOccurrences } from './replaceTool.js';

let h: ToolHarness;
beforeEach(async () => {
  h = await createToolHarness();
});
afterEach(async () => {
  await h.cleanup();
});

describe('replace', () => {
  it('replaces one exact occurrence', async () => {
    await h.write('a.ts', 'const a = 1;\nconst b = 2;\n');
    const out = okOutput(
      await h.call('replace', { file_path: 'a.ts', old_string: 'b = 2', new_string: 'b = 3' }),
    );
    expect(out).toBe('Replaced 1 occurrence in a.ts.');
    expect(await h.read('a.ts')).toBe('const a = 1;\nconst b = 3;\n');
  });

  it('replaces every occurrence when expected_replacements matches the count', async () => {
    await h.write('a.ts', 'x x x\n');
    okOutput(
      await h.call('replace', {
        file_path: 'a.ts',
        old_string: 'x',
        new_string: 'y',
        expected_replacements: 3,
      }),
    );
    expect(await h.read('a.ts')).toBe('y y y\n');
  });

  it('inserts new_string literally, even with $ patterns', async () => {
    await h.write('a.ts', 'price\n');
    okOutput(
      await h.call('replace', {
        file_path: 'a.ts',
        old_string: 'price',
        new_string: "$& $1 $$ $'",
      }),
    );
    expect(await h.read('a.ts')).toBe("$& $1 $$ $'\n");
  });

  it('changes nothing and explains when old_string is not found', async () => {
    await h.write('a.ts', 'abc\n');
    const error = errorText(
      await h.call('replace', { file_path: 'a.ts', old_string: 'abd', new_string: 'x' }),
      'NO_MATCH',
    );
    expect(error).toContain('Read the file again');
    expect(await h.read('a.ts')).toBe('abc\n');
  });

  it('changes nothing and gives the count when it differs from expected_replacements', async () => {
    await h.write('a.ts', 'x x\n');
    const error = errorText(
      await h.call('replace', { file_path: 'a.ts', old_string: 'x', new_string: 'y' }),
      'MATCH_COUNT_MISMATCH',
    );
    expect(error).toContain('occurs 2 times');
    expect(error).toContain('expected_replacements to 2');
    expect(await h.read('a.ts')).toBe('x x\n');
  });

  it('creates a new file when old_string is empty and the file does not exist', async () => {
    const out = okOutput(
      await h.call('replace', { file_path: 'new/b.ts', old_string: '', new_string: 'hello\n' }),
    );
    expect(out).toBe('Created new/b.ts (1 line).');
    expect(await h.read('new/b.ts')).toBe('hello\n');
  });

  it('refuses an empty old_string on an existing file', async () => {
    await h.write('a.ts', 'keep\n');
    errorText(
      await h.call('replace', { file_path: 'a.ts', old_string: '', new_string: 'x' }),
      'FILE_EXISTS',
    );
    expect(await h.read('a.ts')).toBe('keep\n');
  });

  it('reports a missing file when old_string is not empty', async () => {
    errorText(
      await h.call('replace', { file_path: 'nope.ts', old_string: 'a', new_string: 'b' }),
      'FILE_NOT_FOUND',
    );
  });

  it('matches \\n-only text in a CRLF file and keeps the file CRLF', async () => {
    await h.write('w.txt', 'one\r\ntwo\r\nthree\r\n');
    okOutput(
      await h.call('replace', {
        file_path: 'w.txt',
        old_string: 'one\ntwo',
        new_string: 'uno\ndos',
      }),
    );
    expect(await h.read('w.txt')).toBe('uno\r\ndos\r\nthree\r\n');
  });

  it('rejects bad parameters, naming the field', async () => {
    expect(
      errorText(await h.call('replace', { file_path: 'a', old_string: 'x' }), 'INVALID_PARAMETERS'),
    ).toContain('new_string: is required');
    expect(
      errorText(
        await h.call('replace', { file_path: 'a', old_string: 'x', new_string: 'x' }),
        'INVALID_PARAMETERS',
      ),
    ).toContain('identical');
    expect(
      errorText(
        await h.call('replace', {
          file_path: 'a',
          old_string: 'x',
          new_string: 'y',
          expected_replacements: 0,
        }),
        'INVALID_PARAMETERS',
      ),
    ).toContain('expected_replacements');
  });

  it('refuses `../`, absolute paths outside and symlinks pointing out', async () => {
    await h.link(path.join(h.outside, 'secret.txt'), 's.txt');
    for (const file_path of [
      '../outside/secret.txt',
      path.join(h.outside, 'secret.txt'),
      's.txt',
    ]) {
      errorText(
        await h.call('replace', { file_path, old_string: 'secret', new_string: 'x' }),
        'PATH_OUTSIDE_WORKSPACE',
      );
    }
    errorText(
      await h.call('replace', { file_path: '../outside/n.txt', old_string: '', new_string: 'x' }),
      'PATH_OUTSIDE_WORKSPACE',
    );
  });

  it('refuses to edit a binary file', async () => {
    await h.write('b.bin', Buffer.from('ab\0cd'));
    errorText(
      await h.call('replace', { file_path: 'b.bin', old_string: 'ab', new_string: 'x' }),
      'BINARY_FILE',
    );
  });
});

describe('countOccurrences', () => {
  it('counts non-overlapping occurrences, as split does', () => {
    expect(countOccurrences('aaaa', 'aa')).toBe(2);
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom('a', 'b', '\n') }),
        fc.string({ unit: fc.constantFrom('a', 'b', '\n'), minLength: 1, maxLength: 3 }),
        (haystack, needle) => {
          expect(countOccurrences(haystack, needle)).toBe(haystack.split(needle).length - 1);
        },
      ),
      { numRuns: 300 },
    );
  });
});
