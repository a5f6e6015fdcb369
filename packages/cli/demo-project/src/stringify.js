/** Records to CSV text, quoting only the fields that need it. */

const DEFAULTS = { delimiter: ',', header: true };

/**
 * Quotes a field when it contains the delimiter, a quote or a line break.
 * @param {unknown} value
 * @param {string} delimiter
 * @returns {string}
 */
export function quoteField(value, delimiter) {
  const text = value === null || value === undefined ? '' : String(value);
  const needsQuotes =
    text.includes(delimiter) || text.includes('"') || text.includes('\n') || text.includes('\r');
  return needsQuotes ? `"${text.replaceAll('"', '""')}"` : text;
}

/**
 * Writes records (objects or arrays of values) as CSV text, one line per record.
 * @param {Array<Record<string, unknown> | unknown[]>} records
 * @param {{ delimiter?: string, columns?: string[], header?: boolean }} [options]
 * @returns {string}
 */
export function stringifyCsv(records, options = {}) {
  if (!Array.isArray(records)) {
    throw new TypeError(`records must be an array, got ${typeof records}`);
  }
  const { delimiter, header } = { ...DEFAULTS, ...options };
  const first = records[0];
  const columns =
    options.columns ?? (first && !Array.isArray(first) ? Object.keys(first) : undefined);
  const lines = [];
  if (header && columns) {
    lines.push(columns.map((name) => quoteField(name, delimiter)).join(delimiter));
  }
  for (const record of records) {
    const values = Array.isArray(record) ? record : columns.map((name) => record[name]);
    lines.push(values.map((value) => quoteField(value, delimiter)).join(delimiter));
  }
  return lines.length === 0 ? '' : `${lines.join('\n')}\n`;
}
