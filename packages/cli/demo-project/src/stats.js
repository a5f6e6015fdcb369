/** Column statistics over parsed records: count, sum, mean, median, min and max. */

/**
 * The numeric values of one column; cells that are empty or not numbers are skipped.
 * @param {Array<Record<string, string>>} records
 * @param {string} column
 * @returns {number[]}
 */
export function numericValues(records, column) {
  const values = [];
  for (const record of records) {
    const cell = record[column];
    if (cell === undefined || String(cell).trim() === '') continue;
    const value = Number(cell);
    if (Number.isFinite(value)) values.push(value);
  }
  return values;
}

/**
 * @param {number[]} values
 * @returns {number}
 */
export function sum(values) {
  return values.reduce((total, value) => total + value, 0);
}

/**
 * @param {number[]} values
 * @returns {number | null}
 */
export function mean(values) {
  return values.length === 0 ? null : sum(values) / values.length;
}

/**
 * The middle value of the sorted values.
 * @param {number[]} values
 * @returns {number | null}
 */
export function median(values) {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

/**
 * Statistics of the numeric values of `column`.
 * @param {Array<Record<string, string>>} records
 * @param {string} column
 */
export function summarize(records, column) {
  if (!Array.isArray(records)) {
    throw new TypeError(`records must be an array, got ${typeof records}`);
  }
  const values = numericValues(records, column);
  if (values.length === 0) {
    return { count: 0, sum: null, mean: null, median: null, min: null, max: null };
  }
  return {
    count: values.length,
    sum: sum(values),
    mean: mean(values),
    median: median(values),
    min: Math.min(...values),
    max: Math.max(...values),
  };
}
