/** Chapter 4 of the demo session: `summarize` learns the mode; tables right-align numbers. */
import {
  edit,
  glob,
  read,
  runFailingTests,
  runTests,
  step,
  turn,
  verbatim,
  type DemoTurn,
} from './scriptBuilders.js';

const EVEN_MEDIAN_ASSERT = '  assert.equal(median([4, 1, 3, 2]), 2.5);\n});\n';

const MODE_TEST = verbatim`
test('stats: summarize reports the mode, ties going to the smallest value', () => {
  const records = [{ n: '2' }, { n: '5' }, { n: '5' }, { n: '2' }, { n: '9' }];
  assert.equal(summarize(records, 'n').mode, 2);
});
`;

const SUMMARIZE_DOC = '/**\n * Statistics of the numeric values of `column`.';

const MODE_FUNCTION = verbatim`/**
 * The most common value; when several are equally common, the smallest of them.
 * @param {number[]} values
 * @returns {number | null}
 */
export function mode(values) {
  const counts = new Map();
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
  let best = null;
  let bestCount = 0;
  for (const [value, count] of counts) {
    if (count > bestCount || (count === bestCount && value < best)) {
      best = value;
      bestCount = count;
    }
  }
  return best;
}

`;

const TABLE_TEST_OLD = verbatim`  assert.equal(text, 'name  | qty\n------+----\napple | 3\npear  | 5');
});
`;

const TABLE_TEST_NEW = verbatim`  assert.equal(text, 'name  | qty\n------+----\napple |   3\npear  |   5');
});

test('table: numeric columns are right-aligned, others left', () => {
  const text = formatTable([
    { item: 'pen', price: '1.5' },
    { item: 'notebook', price: '12' },
    { item: 'ink', price: '' },
  ]);
  const expected = ['item     | price', '---------+------', 'pen      |   1.5', 'notebook |    12'];
  assert.equal(text, [...expected, 'ink      |'].join('\n'));
});
`;

const TABLE_LINE_OLD = verbatim`  const line = (values) =>
    values
      .map((value, i) => value.padEnd(widths[i]))`;

const TABLE_LINE_NEW = verbatim`  const numeric = columns.map((_, i) => isNumericColumn(cells.map((row) => row[i])));
  const line = (values) =>
    values
      .map((value, i) => (numeric[i] ? value.padStart(widths[i]) : value.padEnd(widths[i])))`;

const RENDER_DOC = '/**\n * Renders records as a table:';

const IS_NUMERIC_COLUMN = verbatim`/**
 * Whether every non-empty cell is a number (and at least one is).
 * @param {string[]} cells
 * @returns {boolean}
 */
export function isNumericColumn(cells) {
  const filled = cells.filter((cell) => cell.trim() !== '');
  return filled.length > 0 && filled.every((cell) => Number.isFinite(Number(cell)));
}

`;

const modeTurns: readonly DemoTurn[] = [
  turn(
    'Feature request: summarize() should also report the mode (the most common value). Look at stats.js again and propose how.',
    'Proposal: a `mode(values)` function next to `median` that counts each value in a Map and ' +
      'returns the most frequent one, or `null` for no values. Ties need a rule; the smallest of ' +
      'the tied values keeps the result deterministic. `summarize` would add `mode` to its result ' +
      '(and `mode: null` when the column has no numbers), and index.js would export `mode`.',
    step(undefined, read('src/stats.js')),
  ),
  turn(
    'Sounds right: ties go to the smallest value. Test first.',
    'Added `stats: summarize reports the mode, ties going to the smallest value`. It fails ' +
      '(undefined !== 2) because `summarize` has no `mode` yet.',
    step(undefined, read('test/stats.test.js')),
    step(undefined, edit('test/stats.test.js', EVEN_MEDIAN_ASSERT, EVEN_MEDIAN_ASSERT + MODE_TEST)),
    step(undefined, runFailingTests),
  ),
  turn(
    'Implement it.',
    'Implemented `mode`, added it to `summarize` and to the exports. The first run showed the two ' +
      'existing `summarize` tests comparing whole objects without `mode`; I added the expected ' +
      '`mode` to both (3 for the all-distinct column, `null` for no numbers). All 24 tests pass.',
    step(
      undefined,
      edit('src/stats.js', SUMMARIZE_DOC, MODE_FUNCTION + SUMMARIZE_DOC),
      edit(
        'src/stats.js',
        '    median: median(values),\n',
        '    median: median(values),\n    mode: mode(values),\n',
      ),
      edit(
        'src/stats.js',
        'median: null, min: null, max: null };',
        'median: null, mode: null, min: null, max: null };',
      ),
      edit(
        'src/index.js',
        "export { summarize, numericValues, sum, mean, median } from './stats.js';",
        "export { summarize, numericValues, sum, mean, median, mode } from './stats.js';",
      ),
    ),
    step(undefined, runFailingTests),
    step(
      'Two older tests compare the whole result and need the new field.',
      edit(
        'test/stats.test.js',
        '    median: 5,\n    min: 3,\n',
        '    median: 5,\n    mode: 3,\n    min: 3,\n',
      ),
      edit(
        'test/stats.test.js',
        '    median: null,\n    min: null,\n',
        '    median: null,\n    mode: null,\n    min: null,\n',
      ),
    ),
    step(undefined, runTests),
  ),
  turn(
    'Update README for mode and add the changelog line.',
    'README.md now lists `mode` in the `summarize` section and in the usage example; CHANGELOG.md ' +
      'has `- Added: summarize reports the mode …`.',
    step(
      undefined,
      edit(
        'README.md',
        '`median`, `min`, `max`.',
        '`median`, `mode` (the most common value;\nties go to the smallest), `min`, `max`.',
      ),
      edit('README.md', 'median: 4, min: 3', 'median: 4, mode: 3, min: 3'),
      edit(
        'CHANGELOG.md',
        'line endings.\n',
        'line endings.\n- Added: `summarize` reports the `mode` (ties go to the smallest value).\n',
      ),
    ),
  ),
];

const tableTurns: readonly DemoTurn[] = [
  turn(
    'formatTable should right-align numeric columns — numbers are hard to compare left-aligned. Have a look at table.js.',
    'Every cell is padded with `padEnd`, so everything is left-aligned. The change is local to ' +
      '`formatTable`: decide per column whether it is numeric, then use `padStart` for those ' +
      'columns (header included) and `padEnd` for the rest.',
    step(undefined, read('src/table.js')),
  ),
  turn(
    'Go ahead: a column is numeric when every non-empty cell is a number. Test first.',
    'Updated the alignment test (qty is numeric, so `3` and `5` move right) and added ' +
      '`table: numeric columns are right-aligned, others left` with an empty price cell. Both fail ' +
      'for now.',
    step(undefined, read('test/table.test.js')),
    step(undefined, edit('test/table.test.js', TABLE_TEST_OLD, TABLE_TEST_NEW)),
    step(undefined, runFailingTests),
  ),
  turn(
    'Now the implementation.',
    'Added `isNumericColumn(cells)` (every non-empty cell is a finite number, and at least one ' +
      'cell is filled) and `formatTable` pads numeric columns with `padStart`. All 25 tests pass.',
    step(
      undefined,
      edit('src/table.js', RENDER_DOC, IS_NUMERIC_COLUMN + RENDER_DOC),
      edit('src/table.js', TABLE_LINE_OLD, TABLE_LINE_NEW),
    ),
    step(undefined, runTests),
  ),
  turn(
    'Update the README example and the changelog.',
    'The README usage example now shows the right-aligned quantities and the `formatTable` ' +
      'section says numeric columns are right-aligned; CHANGELOG.md has the `Changed:` line.',
    step(
      undefined,
      edit('README.md', '// apple | 3\n// pear  | 5', '// apple |   3\n// pear  |   5'),
      edit(
        'README.md',
        'with a header row and a separator line. Options:',
        'with a header row and a separator line; numeric\ncolumns are right-aligned. Options:',
      ),
      edit(
        'CHANGELOG.md',
        '(ties go to the smallest value).\n',
        '(ties go to the smallest value).\n- Changed: `formatTable` right-aligns numeric columns.\n',
      ),
    ),
  ),
  turn(
    "Quick question: what happens if a record has keys the first record doesn't have?",
    'They are left out. Both `stringifyCsv` and `formatTable` take their columns from the first ' +
      'record unless `columns` is given, so extra keys in later records are ignored and missing ' +
      'ones print as empty cells. Passing `columns` explicitly is the way to include them.',
  ),
  turn(
    "Let's double-check the whole suite and the list of files.",
    'All 25 tests pass. The project has 11 JavaScript files: 5 in `src/` and 6 in `test/` ' +
      '(the harness, the runner and four test files).',
    step(undefined, runTests, glob('**/*.js')),
  ),
];

export const MODE_AND_TABLE_TURNS: readonly DemoTurn[] = [...modeTurns, ...tableTurns];
