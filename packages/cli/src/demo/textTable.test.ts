import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { renderTextTable } from './textTable.js';

describe('renderTextTable', () => {
  it('left-aligns labels, right-aligns values and bottom-aligns multi-line headers', () => {
    const text = renderTextTable({
      headers: [['alpha'], ['top-down', 'truncation']],
      rows: [
        { label: 'tokens', cells: ['1,234', '56'] },
        { label: 'compressions', cells: ['3', '12'] },
      ],
    });
    expect(text.split('\n')).toEqual([
      '                       top-down',
      '              alpha  truncation',
      '-------------------------------',
      'tokens        1,234          56',
      'compressions      3          12',
    ]);
  });

  it('prints missing cells as blanks and never leaves trailing spaces', () => {
    const text = renderTextTable({
      headers: [['a'], ['b']],
      rows: [{ label: 'x', cells: ['1'] }],
    });
    expect(text.split('\n').every((line) => line === line.trimEnd())).toBe(true);
    expect(text.split('\n').at(-1)).toBe('x  1');
  });

  it('counts a multi-byte character as one column', () => {
    const text = renderTextTable({
      headers: [['v']],
      rows: [
        { label: 'dash', cells: ['–'] },
        { label: 'n', cells: ['10'] },
      ],
    });
    expect(text.split('\n').slice(-2)).toEqual(['dash   –', 'n     10']);
  });

  test.prop(
    [
      fc.array(fc.array(fc.string({ maxLength: 6 }), { minLength: 1, maxLength: 2 }), {
        minLength: 1,
        maxLength: 4,
      }),
      fc.array(
        fc.record({
          label: fc.string({ maxLength: 10 }),
          cells: fc.array(fc.integer({ min: 0, max: 1e7 }).map(String), { maxLength: 4 }),
        }),
        { maxLength: 6 },
      ),
    ],
    { numRuns: 200 },
  )('every value ends in the same column as its header', (headers, rows) => {
    const lines = renderTextTable({ headers, rows }).split('\n');
    const height = Math.max(...headers.map((h) => h.length));
    const body = lines.slice(height + 1);
    expect(body).toHaveLength(rows.length);
    rows.forEach((row, r) => {
      row.cells.slice(0, headers.length).forEach((cell) => {
        expect(body[r]).toContain(cell);
      });
    });
    expect(lines[height]).toMatch(/^-*$/);
  });
});
