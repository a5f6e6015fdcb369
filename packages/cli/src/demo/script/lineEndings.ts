/** Chapter 3 of the demo session: CRLF input leaks a `\r`; stringify learns an `eol` option. */
import {
  edit,
  read,
  runFailingTests,
  runTests,
  step,
  turn,
  verbatim,
  type DemoTurn,
} from './scriptBuilders.js';

const EMPTY_LINES_TEST = verbatim`test('parse: empty lines are skipped', () => {
  assert.deepEqual(parseCsv('a\n\n1\n\n'), [{ a: '1' }]);
});
`;

const CRLF_TEST = verbatim`
test('parse: CRLF line endings do not leak into the last field', () => {
  assert.deepEqual(parseCsv('name,qty\r\napple,3\r\npear,5\r\n'), [
    { name: 'apple', qty: '3' },
    { name: 'pear', qty: '5' },
  ]);
});
`;

const MISSING_CELLS_TEST_START = "test('parse: missing cells become empty strings', () => {";

const QUOTED_CR_TEST = verbatim`test('parse: a CR inside quotes is kept', () => {
  assert.deepEqual(parseCsv('a,b\r\n"x\r\ny",z\r\n'), [{ a: 'x\r\ny', b: 'z' }]);
});

`;

const NEWLINE_BRANCH = verbatim`    } else if (ch === '\n') {`;

const CRLF_BRANCH = verbatim`    } else if (ch === '\r' && text[i + 1] === '\n') {
      // CRLF: skip the \r; the \n that follows ends the row.
    } else if (ch === '\n') {`;

const EOL_TESTS = verbatim`test('stringify: eol chooses the line ending', () => {
  assert.equal(stringifyCsv([{ a: 1 }], { eol: '\r\n' }), 'a\r\n1\r\n');
});

test('stringify: a bad eol is a RangeError naming it', () => {
  assert.throws(() => stringifyCsv([], { eol: ';' }), /eol must be/);
});

`;

const ROUND_TRIP_TEST_START = "test('stringify: round-trips through parse', () => {";

export const LINE_ENDING_TURNS: readonly DemoTurn[] = [
  turn(
    "Next bug: files exported from Excel on Windows use CRLF line endings, and the last column keeps a trailing \\r (qty comes out as '3\\r'). Check the parser.",
    'Confirmed: `splitRows` only ends a row at `\\n`. With CRLF input the `\\r` before it is an ' +
      'ordinary character outside quotes, so it is appended to the last field of every row.',
    step(undefined, read('src/parse.js')),
  ),
  turn(
    'Write the failing test.',
    'Added `parse: CRLF line endings do not leak into the last field`. It fails as expected: the ' +
      "header's last name and every last cell keep the `\\r` (`'qty\\r': '3\\r'`).",
    step(undefined, read('test/parse.test.js')),
    step(undefined, edit('test/parse.test.js', EMPTY_LINES_TEST, EMPTY_LINES_TEST + CRLF_TEST)),
    step(undefined, runFailingTests),
  ),
  turn(
    'Fix it, and make sure a CR inside a quoted field is kept.',
    'Outside quotes a `\\r` directly before `\\n` is now skipped, so the `\\n` ends the row as ' +
      'before; inside quotes every character is still kept. A second test checks the quoted CR. ' +
      'All 21 tests pass.',
    step(
      undefined,
      edit('src/parse.js', NEWLINE_BRANCH, CRLF_BRANCH),
      edit(
        'test/parse.test.js',
        MISSING_CELLS_TEST_START,
        QUOTED_CR_TEST + MISSING_CELLS_TEST_START,
      ),
    ),
    step(undefined, runTests),
  ),
  turn(
    'Changelog, please.',
    'Added `- Fixed: parseCsv handles CRLF line endings …` under `## Unreleased`.',
    step(
      undefined,
      edit(
        'CHANGELOG.md',
        'two middle values.\n',
        verbatim`two middle values.
- Fixed: \`parseCsv\` handles CRLF line endings; the \`\r\` no longer ends up in the last field.
`,
      ),
    ),
  ),
  turn(
    'Does stringify have the same problem in the other direction?',
    'Not a bug, but a gap: `quoteField` already quotes fields containing `\\r`, so the output is ' +
      'valid, but lines are always joined with `\\n`. Tools that expect CRLF would need an option; ' +
      'I suggest `eol` with `\\n` as the default and `\\r\\n` as the alternative.',
    step(undefined, read('src/stringify.js')),
  ),
  turn(
    "Yes, add an `eol` option (default '\\n'), documented, with a test.",
    'Done: `stringifyCsv` takes `eol` (`\\n` or `\\r\\n`; anything else is a RangeError naming ' +
      'it), the JSDoc and README.md describe it, and two new tests cover it. All 23 tests pass.',
    step(
      undefined,
      edit(
        'src/stringify.js',
        "const DEFAULTS = { delimiter: ',', header: true };",
        verbatim`const DEFAULTS = { delimiter: ',', header: true, eol: '\n' };`,
      ),
      edit(
        'src/stringify.js',
        '  const { delimiter, header } = { ...DEFAULTS, ...options };\n',
        verbatim`  const { delimiter, header, eol } = { ...DEFAULTS, ...options };
  if (eol !== '\n' && eol !== '\r\n') {
    throw new RangeError(\`eol must be '\\n' or '\\r\\n', got \${JSON.stringify(eol)}\`);
  }
`,
      ),
      edit(
        'src/stringify.js',
        verbatim`return lines.length === 0 ? '' : \`\${lines.join('\n')}\n\`;`,
        verbatim`return lines.length === 0 ? '' : \`\${lines.join(eol)}\${eol}\`;`,
      ),
      edit(
        'src/stringify.js',
        '{{ delimiter?: string, columns?: string[], header?: boolean }}',
        '{{ delimiter?: string, columns?: string[], header?: boolean, eol?: string }}',
      ),
    ),
    step(
      undefined,
      read('test/stringify.test.js'),
      edit(
        'README.md',
        'order; default: the keys of the first record), `header` (default `true`).\n',
        verbatim`order; default: the keys of the first record), \`header\` (default \`true\`), \`eol\` (the line
ending: \`\n\`, the default, or \`\r\n\`).
`,
      ),
    ),
    step(
      undefined,
      edit('test/stringify.test.js', ROUND_TRIP_TEST_START, EOL_TESTS + ROUND_TRIP_TEST_START),
    ),
    step(undefined, runTests),
  ),
  turn(
    'Changelog entry for eol.',
    'Added `- Added: stringifyCsv option eol …` under `## Unreleased`.',
    step(
      undefined,
      edit(
        'CHANGELOG.md',
        'in the last field.\n',
        verbatim`in the last field.
- Added: \`stringifyCsv\` option \`eol\` to write \`\r\n\` line endings.
`,
      ),
    ),
  ),
];
