import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  findFileInclusions,
  formatFileInclusion,
  formatFileInclusions,
  INCLUSION_CLOSE,
  inclusionTag,
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
  it('#12.1 formats one file between its own tagged opening and closing markers', () => {
    const tag = inclusionTag('x\ny\n');
    expect(tag).toMatch(/^[0-9a-f]{8}$/);
    expect(formatFileInclusion('src/a.ts', 'x\ny')).toBe(
      `--- src/a.ts --- [${tag}]\nx\ny\n${INCLUSION_CLOSE} [${tag}]`,
    );
    expect(formatFileInclusion('src/a.ts', 'x\ny\n')).toBe(formatFileInclusion('src/a.ts', 'x\ny'));
  });

  it('#12.1 the tag never occurs in the content it closes', () => {
    const content = 'abc\n';
    const first = inclusionTag(content);
    const withTag = `${first}\n`;
    expect(inclusionTag(withTag)).not.toBe(first);
    expect(withTag.includes(inclusionTag(withTag))).toBe(false);
  });

  it('finds each file of a multi-file block as its own inclusion', () => {
    const text = `Look:\n${formatFileInclusions([
      { path: 'a.ts', content: 'A' },
      { path: 'b.ts', content: 'B' },
    ])}\nthanks`;
    const spans = findFileInclusions(text);
    expect(spans.map((s) => s.filePath)).toEqual(['a.ts', 'b.ts']);
    expect(text.slice(spans[0]!.start, spans[0]!.end)).toBe(
      `${formatFileInclusion('a.ts', 'A')}\n`,
    );
    expect(text.slice(spans[1]!.start, spans[1]!.end)).toBe(
      `${formatFileInclusion('b.ts', 'B')}\n`,
    );
  });

  it('a header line before the files is not an inclusion (it never swallows the files)', () => {
    const text = `--- Content from referenced files ---\n${formatFileInclusion('a.ts', 'A')}\n`;
    expect(findFileInclusions(text).map((s) => s.filePath)).toEqual(['a.ts']);
  });

  it('#12.1 untagged (legacy) markers are plain text', () => {
    expect(findFileInclusions(`--- a.ts ---\nx\n${INCLUSION_CLOSE}\n`)).toEqual([]);
  });

  it('unpaired markers yield nothing: an unclosed opener, a closer without an opener', () => {
    const [open, , close] = formatFileInclusion('a.ts', 'x').split('\n');
    expect(findFileInclusions(`${open}\ncontent without end`)).toEqual([]);
    expect(findFileInclusions(`just text\n${close}\n`)).toEqual([]);
  });

  it('#12.1 an opener pairs only with the closer made for its exact content', () => {
    const [open, , close] = formatFileInclusion('a.ts', 'x').split('\n');
    expect(findFileInclusions(`${open}\ny\n${close}`)).toEqual([]);
    expect(findFileInclusions(`${open}\nx\n${close}`)).toHaveLength(1);
  });

  it('markers count only as whole lines', () => {
    const own = formatFileInclusion('a.ts', 'x');
    expect(findFileInclusions(`say ${own}`)).toEqual([]);
    expect(
      findFileInclusions(own.replace(`\n${INCLUSION_CLOSE}`, `\n  ${INCLUSION_CLOSE}`)),
    ).toEqual([]);
  });

  it('accepts CRLF line endings', () => {
    const body = 'x\r\n';
    const tag = inclusionTag(body);
    const text = `--- a.ts --- [${tag}]\r\n${body}${INCLUSION_CLOSE} [${tag}]\r\n`;
    expect(findFileInclusions(text).map((s) => s.filePath)).toEqual(['a.ts']);
  });

  it('#12.1 round-trips, whatever the content holds: whatever formatFileInclusions writes, findFileInclusions finds, in order, with exact spans', () => {
    const safeLine = fc
      .string()
      .filter((s) => !s.includes('\n') && !s.startsWith('--- ') && !s.startsWith('---'));
    const markerLine = fc.constantFrom(
      '--- Summary ---',
      INCLUSION_CLOSE,
      formatFileInclusion('p.ts', 'pasted'),
      `${INCLUSION_CLOSE} [${inclusionTag('pasted\n')}]`,
    );
    const file = fc.record({
      path: fc.stringMatching(/^[A-Za-z0-9_./-]{1,20}$/),
      content: fc
        .array(fc.oneof(fc.string(), markerLine), { maxLength: 4 })
        .map((lines) => lines.join('\n')),
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
