import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { findFileInclusions } from '../core/compression/densityVocabulary.js';
import { askedForBy, closingLines } from './geminiInclusionChecks.js';
import { mapAtExpansion, mapInlinedFileParts } from './geminiInclusions.js';

/** gemini-cli's `@` expansion, as its parts join into one string. */
function atExpansion(prompt: string, files: readonly { path: string; content: string }[]): string {
  const parts = [prompt, '\n--- Content from referenced files ---'];
  for (const file of files) parts.push(`\nContent from @${file.path}:\n`, file.content);
  parts.push('\n--- End of content ---');
  return parts.join('');
}

describe('#12.1 imported gemini-cli inclusions are rewritten only when unambiguous', () => {
  it('#12.1 a file whose content has a "Content from @…:" line for a path not asked for is left as is', () => {
    const text = atExpansion('see @run1.log', [
      { path: 'run1.log', content: 'start\nContent from @Summary:\npassed' },
    ]);
    expect(mapAtExpansion(text)).toBeUndefined();
  });

  it('#12.1 a second closing line (in a file) leaves the block as is', () => {
    const text = atExpansion('see @a.md', [
      { path: 'a.md', content: 'x\n--- End of content ---\ny' },
    ]);
    expect(mapAtExpansion(text)).toBeUndefined();
  });

  it('#12.1 legacy layout: a marker-shaped line inside a file leaves the block as is', () => {
    const text =
      'check @src\n--- Content from referenced files ---\n--- src/a.ts ---\nA\n--- Summary ---\nmore\n--- End of content ---';
    expect(mapAtExpansion(text)).toBeUndefined();
    expect(
      mapInlinedFileParts('--- /p/a.md ---\n1\n--- /p/a.md ---\n2\n--- End of content ---'),
    ).toBe(undefined);
    expect(mapInlinedFileParts('lost words\n--- /p/a.md ---\n1\n--- End of content ---')).toBe(
      undefined,
    );
  });

  it('#12.1 files under a referenced directory or glob, or found by bare name, count as asked for', () => {
    const asked = askedForBy('look at @src/, @docs/** and @util.ts, also @my\\ notes.md.');
    expect(asked('src/a.ts')).toBe(true);
    expect(asked('docs/x/y.md')).toBe(true);
    expect(asked('lib/util.ts')).toBe(true);
    expect(asked('my notes.md')).toBe(true);
    expect(asked('Summary')).toBe(false);
    expect(asked('srcx/a.ts')).toBe(false);
    expect(closingLines('--- End of content ---\r\nx\n--- End of content ---')).toEqual([0, 26]);
  });

  const PATHS = ['a.md', 'src/b.ts', 'run.log'] as const;
  const line = fc.oneof(
    fc.constantFrom(
      '--- Summary ---',
      '--- End of content ---',
      'Content from @Summary:',
      ...PATHS.map((p) => `Content from @${p}:`),
      ...PATHS.map((p) => `--- ${p} ---`),
    ),
    fc.stringMatching(/^[a-z =;-]{0,20}$/),
  );
  const content = fc.array(line, { maxLength: 6 }).map((lines) => lines.join('\n'));
  const files = fc.uniqueArray(fc.record({ path: fc.constantFrom(...PATHS), content }), {
    minLength: 1,
    maxLength: 3,
    selector: (file) => file.path,
  });

  test.prop([files], { numRuns: 300 })(
    '#12.1 property: a rewritten expansion holds exactly the files that were inlined, each whole',
    (fileList) => {
      const prompt = `read ${fileList.map((f) => `@${f.path}`).join(' ')}`;
      const mapped = mapAtExpansion(atExpansion(prompt, fileList));
      if (mapped === undefined) return;
      expect(mapped.files).toEqual(fileList);
      expect(findFileInclusions(mapped.text).map((s) => s.filePath)).toEqual(
        fileList.map((f) => f.path),
      );
    },
  );
});
