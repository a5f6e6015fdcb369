/** Records as an aligned plain-text table, for printing in a terminal. */

/**
 * Cuts `text` to `width` characters, ending with an ellipsis when it was cut.
 * @param {string} text
 * @param {number} width
 * @returns {string}
 */
export function truncate(text, width) {
  return text.length <= width ? text : `${text.slice(0, width - 1)}…`;
}

/**
 * Renders records as a table: a header row, a separator line and one row per record.
 * @param {Array<Record<string, unknown>>} records
 * @param {{ columns?: string[], maxWidth?: number }} [options]
 * @returns {string}
 */
export function formatTable(records, options = {}) {
  const columns = options.columns ?? Object.keys(records[0] ?? {});
  const maxWidth = options.maxWidth ?? 40;
  if (columns.length === 0) return '';
  const cells = records.map((record) =>
    columns.map((name) => truncate(String(record[name] ?? ''), maxWidth)),
  );
  const widths = columns.map((name, i) =>
    Math.max(truncate(name, maxWidth).length, ...cells.map((row) => row[i].length)),
  );
  const line = (values) =>
    values
      .map((value, i) => value.padEnd(widths[i]))
      .join(' | ')
      .trimEnd();
  const header = line(columns.map((name) => truncate(name, maxWidth)));
  const separator = widths.map((width) => '-'.repeat(width)).join('-+-');
  return [header, separator, ...cells.map(line)].join('\n');
}
