/** Chapter 5 of the demo session: `delimiter: 'auto'`, then a check against the contribution rules. */
import {
  edit,
  grep,
  read,
  runTests,
  shell,
  step,
  turn,
  verbatim,
  write,
  type DemoTurn,
} from './scriptBuilders.js';

const DETECT_MODULE = verbatim`/** Guesses the delimiter of CSV text from its first line. */

const CANDIDATES = [',', ';', '\t', '|'];

/**
 * The candidate that occurs most often outside quotes in the first line of \`text\`; \`,\` when
 * none occurs. Ties go to the earlier candidate in the order \`,\` \`;\` tab \`|\`.
 * @param {string} text
 * @returns {string}
 */
export function detectDelimiter(text) {
  if (typeof text !== 'string') {
    throw new TypeError(\`text must be a string, got \${typeof text}\`);
  }
  const counts = new Map(CANDIDATES.map((candidate) => [candidate, 0]));
  let inQuotes = false;
  for (const ch of text) {
    if (ch === '"') inQuotes = !inQuotes;
    else if (!inQuotes && (ch === '\n' || ch === '\r')) break;
    else if (!inQuotes && counts.has(ch)) counts.set(ch, counts.get(ch) + 1);
  }
  let best = ',';
  let bestCount = 0;
  for (const [candidate, count] of counts) {
    if (count > bestCount) {
      best = candidate;
      bestCount = count;
    }
  }
  return best;
}
`;

const DETECT_TESTS = verbatim`import assert from 'node:assert/strict';
import { test } from './harness.js';
import { detectDelimiter } from '../src/detect.js';

test('detect: comma, semicolon, tab and pipe', () => {
  assert.equal(detectDelimiter('a,b,c\n1,2,3\n'), ',');
  assert.equal(detectDelimiter('a;b;c\n1;2;3\n'), ';');
  assert.equal(detectDelimiter('a\tb\n1\t2\n'), '\t');
  assert.equal(detectDelimiter('a|b\n1|2\n'), '|');
});

test('detect: delimiters inside quotes do not count', () => {
  assert.equal(detectDelimiter('"x,y,z";b\n'), ';');
});

test('detect: only the first line is looked at', () => {
  assert.equal(detectDelimiter('a;b\n1,2,3,4,5\n'), ';');
});

test('detect: a single column defaults to a comma', () => {
  assert.equal(detectDelimiter('name\nalice\n'), ',');
});
`;

const PARSE_DEFAULTS = "const DEFAULTS = { delimiter: ',', header: true, skipEmptyLines: true };";

const PARSE_OPTIONS_OLD = verbatim`  const { delimiter, header, skipEmptyLines } = { ...DEFAULTS, ...options };
`;

const PARSE_OPTIONS_NEW = verbatim`  const { header, skipEmptyLines, ...rest } = { ...DEFAULTS, ...options };
  const delimiter = rest.delimiter === 'auto' ? detectDelimiter(text) : rest.delimiter;
`;

const BAD_DELIMITER_TEST_START = "test('parse: a bad delimiter is a RangeError naming it', () => {";

const AUTO_TEST = verbatim`test('parse: delimiter auto detects semicolons', () => {
  assert.deepEqual(parseCsv('a;b\n1;2\n', { delimiter: 'auto' }), [{ a: '1', b: '2' }]);
});

`;

const LIST_EXPORTS = `node -e "import('./src/index.js').then((m) => console.log(Object.keys(m).sort().join(' ')))"`;

export const DELIMITER_TURNS: readonly DemoTurn[] = [
  turn(
    "Users keep forgetting to pass delimiter: ';' for European exports. Could parseCsv detect the delimiter when the option is 'auto'? Re-read parse.js first.",
    'Yes. `parseCsv` validates `delimiter` right after merging the options, so `auto` can be ' +
      'resolved just before that check: look at the first line, count `,` `;` tab and `|` outside ' +
      'quotes and take the most frequent, defaulting to `,`. I would put the guessing in its own ' +
      'module so it can be tested and exported on its own.',
    step(undefined, read('src/parse.js')),
  ),
  turn(
    'Do it in a new module src/detect.js, with tests in test/detect.test.js.',
    'Created `src/detect.js` with `detectDelimiter(text)` and `test/detect.test.js` with four ' +
      'tests (each candidate, quotes, first line only, single column), and registered the file ' +
      'in `test/run.js`. All 29 tests pass.',
    step(
      undefined,
      write('src/detect.js', DETECT_MODULE),
      write('test/detect.test.js', DETECT_TESTS),
      edit(
        'test/run.js',
        "import './table.test.js';\n",
        "import './table.test.js';\nimport './detect.test.js';\n",
      ),
    ),
    step(undefined, runTests),
  ),
  turn(
    "Now wire it into parseCsv: delimiter 'auto'.",
    "`parseCsv` now resolves `delimiter: 'auto'` with `detectDelimiter(text)` before validating " +
      'it, and a new parser test covers a semicolon file. All 30 tests pass.',
    step(
      undefined,
      edit(
        'src/parse.js',
        PARSE_DEFAULTS,
        `import { detectDelimiter } from './detect.js';\n\n${PARSE_DEFAULTS}`,
      ),
      edit('src/parse.js', PARSE_OPTIONS_OLD, PARSE_OPTIONS_NEW),
      edit(
        'src/parse.js',
        ' * Parses CSV text.\n',
        " * Parses CSV text. `delimiter: 'auto'` guesses the delimiter from the first line.\n",
      ),
    ),
    step(undefined, read('test/parse.test.js')),
    step(
      undefined,
      edit('test/parse.test.js', BAD_DELIMITER_TEST_START, AUTO_TEST + BAD_DELIMITER_TEST_START),
    ),
    step(undefined, runTests),
  ),
  turn(
    'Export detectDelimiter from the index too.',
    '`src/index.js` exports `detectDelimiter` now; the package exposes 13 functions.',
    step(undefined, read('src/index.js')),
    step(
      undefined,
      edit(
        'src/index.js',
        "export { parseCsv, splitRows } from './parse.js';\n",
        "export { parseCsv, splitRows } from './parse.js';\nexport { detectDelimiter } from './detect.js';\n",
      ),
    ),
    step('Checking what the package exports now.', shell(LIST_EXPORTS)),
  ),
  turn(
    "Document 'auto' in the README, and changelog.",
    "README.md describes `'auto'` under the `delimiter` option of `parseCsv`, and CHANGELOG.md " +
      "has `- Added: parseCsv option delimiter: 'auto' and detectDelimiter(text)`.",
    step(undefined, read('README.md')),
    step(
      undefined,
      edit(
        'README.md',
        '- `delimiter` (default `,`): the field separator, one character.\n',
        "- `delimiter` (default `,`): the field separator, one character, or `'auto'` to guess it from\n  the first line (the most frequent of `,` `;` tab `|` outside quotes).\n",
      ),
      edit(
        'CHANGELOG.md',
        'right-aligns numeric columns.\n',
        "right-aligns numeric columns.\n- Added: `parseCsv` option `delimiter: 'auto'` and `detectDelimiter(text)`.\n",
      ),
    ),
  ),
  turn(
    'Before we release, one more look at the rules: @CONTRIBUTING.md — are we compliant with all of them?',
    'Yes, as far as I can check: no dependencies (only relative imports); every fix started with ' +
      'a failing test; nothing in `src/` prints or reads files and no function mutates its ' +
      'arguments; the new errors name the argument (`eol must be …`, `text must be a string`); ' +
      'README.md documents `eol` and `auto`; CHANGELOG.md has a line per change. Release steps ' +
      'come next.',
    step(undefined, grep('console\\.', 'src'), grep('^import ', 'src')),
  ),
  turn(
    'Check rule 7 properly: are all exported functions documented with JSDoc?',
    'Yes: each of the 14 exported functions in `src/` is directly preceded by the closing ` */` ' +
      'of its JSDoc block.',
    step(undefined, shell('grep -n -B1 "^export function" src/*.js')),
  ),
  turn(
    'What does the changelog look like now?',
    'Six entries under `## Unreleased`: two fixes (median, CRLF), three additions (`eol`, `mode`, ' +
      "`delimiter: 'auto'`) and one change (right-aligned numeric columns).",
    step(undefined, read('CHANGELOG.md')),
  ),
];
