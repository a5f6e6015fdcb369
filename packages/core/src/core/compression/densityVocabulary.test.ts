import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  findFileInclusions,
  formatFileInclusion,
  formatFileInclusions,
  INCLUSION_CLOSE,
  isReadTool,
  isWriteTool,
  PRUNED_POINTER,
} from './densityVocabulary.js';

describe('tool vocabulary', () => {
  it('REQ-HD-005.2/005.3 knows the read and write tools', () => {
    for (const name of ['read_file', 'read_line_range', 'read_many_files', 'ast_read_file'])
      expect(isReadTool(name)).toBe(true);
    for (const name of ['write_file', 'ast_edit', 'replace', 'insert_at_line', 'delete_line_range'])
      expect(isWriteTool(name)).toBe(true);
    expect(isReadTool('run_shell_command')).toBe(false);
    expect(isWriteTool('read_file')).toBe(false);
  });

  it('REQ-HD-007.2 the pruned pointer is verbatim', () => {
    expect(PRUNED_POINTER).toBe('[Result pruned — re-run tool to retrieve]');
  });
});

describe('inclusion markers', () => {
  it('formats one file between its own opening and closing markers', () => {
    expect(formatFileInclusion('src/a.ts', 'x\ny')).toBe(
      `--- src/a.ts ---\nx\ny\n${INCLUSION_CLOSE}`,
    );
    expect(formatFileInclusion('src/a.ts', 'x\n')).toBe(`--- src/a.ts ---\nx\n${INCLUSION_CLOSE}`);
  });

  it('finds each file of a multi-file block as its own inclusion', () => {
    const text = `Look:\n${formatFileInclusions([
      { path: 'a.ts', content: 'A' },
      { path: 'b.ts', content: 'B' },
    ])}\nthanks`;
    const spans = findFileInclusions(text);
    expect(spans.map((s) => s.filePath)).toEqual(['a.ts', 'b.ts']);
    expect(text.slice(spans[0]!.start, spans[0]!.end)).toBe(
      `--- a.ts ---\nA\n${INCLUSION_CLOSE}\n`,
    );
    expect(text.slice(spans[1]!.start, spans[1]!.end)).toBe(
      `--- b.ts ---\nB\n${INCLUSION_CLOSE}\n`,
    );
  });

  it('a header opener followed by another opener is not an inclusion (it never swallows the files)', () => {
    const text = `--- Content from referenced files ---\n${formatFileInclusion('a.ts', 'A')}\n`;
    expect(findFileInclusions(text).map((s) => s.filePath)).toEqual(['a.ts']);
  });

  it('unpaired markers yield nothing: an unclosed opener, a closer without an opener', () => {
    expect(findFileInclusions('--- a.ts ---\ncontent without end')).toEqual([]);
    expect(findFileInclusions(`just text\n${INCLUSION_CLOSE}\n`)).toEqual([]);
  });

  it('markers count only as whole lines', () => {
    expect(findFileInclusions(`say --- a.ts ---\nx\n${INCLUSION_CLOSE}`)).toEqual([]);
    expect(findFileInclusions(`--- a.ts ---\nx\n  ${INCLUSION_CLOSE}`)).toEqual([]);
  });

  it('accepts CRLF line endings', () => {
    expect(
      findFileInclusions(`--- a.ts ---\r\nx\r\n${INCLUSION_CLOSE}\r\n`).map((s) => s.filePath),
    ).toEqual(['a.ts']);
  });

  it('round-trips: whatever formatFileInclusions writes, findFileInclusions finds, in order, with exact spans', () => {
    const safeLine = fc
      .string()
      .filter((s) => !s.includes('\n') && !s.startsWith('--- ') && !s.startsWith('---'));
    const file = fc.record({
      path: fc.stringMatching(/^[A-Za-z0-9_./-]{1,20}$/),
      content: fc.array(safeLine, { maxLength: 4 }).map((lines) => lines.join('\n')),
    });
    fc.assert(
      fc.property(fc.array(file, { minLength: 1, maxLength: 5 }), safeLine, (files, prefix) => {
        const text = `${prefix}\n${formatFileInclusions(files)}`;
        const spans = findFileInclusions(text);
        expect(spans.map((s) => s.filePath)).toEqual(files.map((f) => f.path.trim()));
        spans.forEach((span, i) => {
          const own = formatFileInclusion(files[i]!.path, files[i]!.content);
          expect(text.slice(span.start, span.start + own.length)).toBe(own);
        });
      }),
      { numRuns: 200 },
    );
  });
});
