/**
 * A plain-text table for terminals: a left-aligned label column, right-aligned value columns,
 * headers of one or more lines aligned to the bottom, and a rule under the header.
 */

export interface TextTableRow {
  readonly label: string;
  readonly cells: readonly string[];
}

export interface TextTable {
  /** One entry per value column; each is the header's lines, top to bottom. */
  readonly headers: readonly (readonly string[])[];
  readonly rows: readonly TextTableRow[];
  /** Spaces between columns (default 2). */
  readonly gap?: number;
}

/** Width in terminal columns, counting each code point as one. */
function width(text: string): number {
  return Array.from(text).length;
}

function padStart(text: string, size: number): string {
  return ' '.repeat(Math.max(0, size - width(text))) + text;
}

function padEnd(text: string, size: number): string {
  return text + ' '.repeat(Math.max(0, size - width(text)));
}

/** The table as lines joined by `\n`, without trailing spaces. Missing cells print empty. */
export function renderTextTable(table: TextTable): string {
  const gap = ' '.repeat(table.gap ?? 2);
  const columns = table.headers.length;
  const labelWidth = Math.max(0, ...table.rows.map((row) => width(row.label)));
  const widths = table.headers.map((header, c) =>
    Math.max(...header.map(width), ...table.rows.map((row) => width(row.cells[c] ?? ''))),
  );
  const headerHeight = Math.max(0, ...table.headers.map((header) => header.length));
  const line = (label: string, cells: readonly string[]): string =>
    [padEnd(label, labelWidth), ...widths.map((w, c) => padStart(cells[c] ?? '', w))]
      .join(gap)
      .trimEnd();
  const headerLines = Array.from({ length: headerHeight }, (_, i) =>
    line(
      '',
      table.headers.map((header) => header[i - (headerHeight - header.length)] ?? ''),
    ),
  );
  const rule = '-'.repeat(labelWidth + widths.reduce((a, w) => a + w, 0) + gap.length * columns);
  return [...headerLines, rule, ...table.rows.map((row) => line(row.label, row.cells))].join('\n');
}
