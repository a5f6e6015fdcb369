/** tinycsv: parse, stringify, summarize and print CSV data. */
export { parseCsv, splitRows } from './parse.js';
export { stringifyCsv, quoteField } from './stringify.js';
export { summarize, numericValues, sum, mean, median } from './stats.js';
export { formatTable, truncate } from './table.js';
