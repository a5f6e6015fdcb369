/**
 * CSV text to records. Handles quoted fields, doubled quotes inside them, delimiters and newlines
 * inside quotes, and an optional header row.
 */

const DEFAULTS = { delimiter: ',', header: true, skipEmptyLines: true };

/**
 * Splits CSV text into rows of raw string fields.
 * @param {string} text
 * @param {string} delimiter
 * @returns {string[][]}
 */
export function splitRows(text, delimiter) {
  const rows = [];
  let row = [];
  let field = '';
  let inQuotes = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (inQuotes) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (ch === '"') {
        inQuotes = false;
      } else {
        field += ch;
      }
    } else if (ch === '"') {
      inQuotes = true;
    } else if (ch === delimiter) {
      row.push(field);
      field = '';
    } else if (ch === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else {
      field += ch;
    }
  }
  if (field !== '' || row.length > 0) {
    row.push(field);
    rows.push(row);
  }
  return rows;
}

/**
 * Parses CSV text.
 * @param {string} text
 * @param {{ delimiter?: string, header?: boolean, skipEmptyLines?: boolean }} [options]
 * @returns {Array<Record<string, string>> | string[][]}
 */
export function parseCsv(text, options = {}) {
  if (typeof text !== 'string') {
    throw new TypeError(`text must be a string, got ${typeof text}`);
  }
  const { delimiter, header, skipEmptyLines } = { ...DEFAULTS, ...options };
  if (typeof delimiter !== 'string' || delimiter.length !== 1) {
    throw new RangeError(`delimiter must be one character, got ${JSON.stringify(delimiter)}`);
  }
  let rows = splitRows(text, delimiter);
  if (skipEmptyLines) {
    rows = rows.filter((row) => row.length > 1 || row[0] !== '');
  }
  if (!header) return rows;
  const [names = [], ...body] = rows;
  return body.map((row) => {
    const record = {};
    names.forEach((name, i) => {
      record[name] = row[i] ?? '';
    });
    return record;
  });
}
