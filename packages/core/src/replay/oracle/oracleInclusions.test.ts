import { describe, expect, it } from 'vitest';
import { fc, test } from '@fast-check/vitest';
import { inlinedFiles } from './oracleInclusions.js';

/** The inlined-file layout, written out (the oracle's documented format). */
const block = (file: string, content: string) =>
  `--- ${file} ---\n${content.endsWith('\n') ? content : `${content}\n`}--- End of content ---`;

const spanTexts = (text: string, expected?: readonly string[]) =>
  inlinedFiles(text, expected).map((span) => [span.filePath, text.slice(span.start, span.end)]);

describe('#12 the oracle finds inlined files on its own', () => {
  it('a file whose content has a `--- Summary ---` line is one file, not cut at that line', () => {
    const run1 = block('run1.log', 'start\n--- Summary ---\n3 passed\n');
    expect(spanTexts(`see @run1.log\n${run1}`)).toEqual([['run1.log', run1]]);
  });

  it('notes.md holding a `--- src/b.ts ---` line stays whole, next to a real src/b.ts', () => {
    const notes = block('notes.md', 'todo\n--- src/b.ts ---\nmore notes\n');
    const b = block('src/b.ts', 'export const b = 1;');
    expect(spanTexts(`${notes}\n${b}`)).toEqual([
      ['notes.md', `${notes}\n`],
      ['src/b.ts', b],
    ]);
  });

  it('a close-shaped line inside a file does not end it when the real close follows', () => {
    const tricky = block('doc.md', 'intro\n--- End of content ---\nstill the doc\n');
    expect(spanTexts(tricky)).toEqual([['doc.md', tricky]]);
  });

  it("Dense's tagged layout: a file ends only at its own tagged close, whatever its content holds", () => {
    const first = 'a\n--- End of content --- [00000000]\n--- x.ts --- [11111111]\nb\n';
    const text =
      `--- a.md --- [abcdef01]\n${first}--- End of content --- [abcdef01]\n` +
      `--- b.ts --- [12345678]\nbee\n--- End of content --- [12345678]`;
    const spans = inlinedFiles(text);
    expect(spans.map((s) => s.filePath)).toEqual(['a.md', 'b.ts']);
    expect(text.slice(spans[0]?.start, spans[0]?.end)).toContain(first);
    expect(spans[1]?.end).toBe(text.length);
  });

  it('the header, unclosed files and files the call did not ask for are no files', () => {
    expect(inlinedFiles('--- Content from referenced files ---\n--- a ---\nx\n')).toEqual([]);
    const text = `--- Content from referenced files ---\n${block('a.ts', 'x')}`;
    expect(spanTexts(text).map(([file]) => file)).toEqual(['a.ts']);
    const two = `${block('a.ts', 'x')}\n${block('b.ts', 'y')}`;
    expect(spanTexts(two, ['b.ts']).map(([file]) => file)).toEqual(['b.ts']);
  });

  const line = fc.oneof(
    fc.stringMatching(/^[a-z ]{0,12}$/),
    fc.constantFrom('--- Summary ---', '--- a.ts ---', '--- b.ts ---', '---  ---'),
  );
  const file = fc.record({
    name: fc.constantFrom('a.ts', 'b.ts', 'c.md'),
    lines: fc.array(line, { maxLength: 6 }),
  });

  test.prop([fc.array(file, { minLength: 1, maxLength: 4 }), fc.boolean()], { numRuns: 200 })(
    'marker-shaped lines in content never change which files are found or where they end',
    (files, named) => {
      const blocks = files.map((f) => block(f.name, f.lines.join('\n')));
      const text = `prompt\n${blocks.join('\n')}`;
      const expected = named ? files.map((f) => f.name) : undefined;
      const found = spanTexts(text, expected).map(([, span]) => span?.replace(/\n$/, ''));
      expect(found).toEqual(blocks);
    },
  );
});
