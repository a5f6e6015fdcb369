import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import {
  findFileInclusions,
  formatFileInclusion,
  formatFileInclusions,
} from '../core/compression/densityVocabulary.js';
import { legacyFiles, mapAtExpansion, mapInlinedFileParts } from './geminiInclusions.js';

/** gemini-cli's `@` expansion, as its parts join into one string. */
function atExpansion(prompt: string, files: readonly { path: string; content: string }[]): string {
  const parts = [prompt, '\n--- Content from referenced files ---'];
  for (const file of files) parts.push(`\nContent from @${file.path}:\n`, file.content);
  parts.push('\n--- End of content ---');
  return parts.join('');
}

describe('mapAtExpansion', () => {
  it('gives every referenced file its own marker pair, in our format', () => {
    const text = atExpansion('Compare @a.md and @b.md', [
      { path: 'a.md', content: 'alpha\nbeta' },
      { path: 'b.md', content: 'gamma' },
    ]);
    const mapped = mapAtExpansion(text);
    expect(mapped?.text).toBe(
      `Compare @a.md and @b.md\n${formatFileInclusion('a.md', 'alpha\nbeta')}\n${formatFileInclusion('b.md', 'gamma')}`,
    );
    expect(findFileInclusions(mapped?.text ?? '').map((span) => span.filePath)).toEqual([
      'a.md',
      'b.md',
    ]);
  });

  it('never treats the "Content from referenced files" header as a file', () => {
    const mapped = mapAtExpansion(atExpansion('see @x', [{ path: 'x', content: 'body' }]));
    expect(mapped).toBeDefined();
    expect(mapped?.text).not.toContain('Content from referenced files');
    expect(findFileInclusions(mapped?.text ?? '')).toHaveLength(1);
  });

  it('keeps text the user wrote after the expansion', () => {
    const text = `${atExpansion('look @x', [{ path: 'x', content: 'body' }])}\nand be quick`;
    expect(mapAtExpansion(text)?.text).toBe(
      `look @x\n${formatFileInclusion('x', 'body')}\nand be quick`,
    );
  });

  it('reads the older layout where each file opens with --- <path> ---', () => {
    const text =
      'check @src\n--- Content from referenced files ---\n--- src/a.ts ---\n\nA\n\n--- src/b.ts ---\n\nB\n\n--- End of content ---';
    expect(mapAtExpansion(text)?.files).toEqual([
      { path: 'src/a.ts', content: 'A' },
      { path: 'src/b.ts', content: 'B' },
    ]);
  });

  it('leaves text without an expansion alone', () => {
    expect(mapAtExpansion('plain words')).toBeUndefined();
  });

  const path = fc.stringMatching(/^[a-z][a-z0-9_]{0,6}(\/[a-z0-9_]{1,6}){0,2}\.[a-z]{1,3}$/);
  const line = fc.stringMatching(/^[a-zA-Z0-9 _.,;(){}=+]{0,30}$/);
  const content = fc.array(line, { minLength: 1, maxLength: 6 }).map((lines) => lines.join('\n'));
  const files = fc.uniqueArray(fc.record({ path, content }), {
    minLength: 1,
    maxLength: 5,
    selector: (file) => file.path,
  });

  test.prop([line, files], { numRuns: 200 })(
    'round-trips any set of files into exactly one inclusion per file',
    (words, fileList) => {
      const prompt = `${words} ${fileList.map((file) => `@${file.path}`).join(' ')}`;
      const mapped = mapAtExpansion(atExpansion(prompt, fileList));
      expect(mapped?.files).toEqual(fileList);
      const spans = findFileInclusions(mapped?.text ?? '');
      expect(spans.map((span) => span.filePath)).toEqual(fileList.map((file) => file.path));
      expect(mapped?.text.endsWith(formatFileInclusions(fileList))).toBe(true);
    },
  );
});

describe('mapInlinedFileParts', () => {
  it('rewrites read_many_files output (one closing marker for all) to one pair per file', () => {
    const parts = '--- /p/one.txt ---\n\n1\n\n--- /p/two.txt ---\n\n2\n\n\n--- End of content ---';
    const mapped = mapInlinedFileParts(parts);
    expect(mapped?.text).toBe(
      formatFileInclusions([
        { path: '/p/one.txt', content: '1' },
        { path: '/p/two.txt', content: '2' },
      ]),
    );
  });

  it('is undefined for text that holds no file', () => {
    expect(mapInlinedFileParts('no files here')).toBeUndefined();
    expect(legacyFiles('')).toEqual([]);
  });
});
