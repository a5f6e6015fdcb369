/** Chapter 6 of the demo session: release 0.4.0, polish the README, wrap up. */
import {
  edit,
  read,
  runTests,
  shell,
  step,
  turn,
  verbatim,
  write,
  type DemoTurn,
} from './scriptBuilders.js';

const USAGE_PARSE_OLD = verbatim`const rows = parseCsv('name,qty\napple,3\npear,5\n');`;
const USAGE_PARSE_NEW = verbatim`const rows = parseCsv('name;qty\r\napple;3\r\npear;5\r\n', { delimiter: 'auto' });`;

const USAGE_END_OLD = '// pear  |   5\n```';
const USAGE_END_NEW = verbatim`// pear  |   5

stringifyCsv(rows, { eol: '\r\n' });
// 'name,qty\r\napple,3\r\npear,5\r\n'
\`\`\``;

const CHECK_USAGE = verbatim`node -e "import('./src/index.js').then(({ parseCsv, stringifyCsv }) => { const rows = parseCsv('name;qty\r\napple;3\r\npear;5\r\n', { delimiter: 'auto' }); console.log(JSON.stringify(rows)); console.log(JSON.stringify(stringifyCsv(rows, { eol: '\r\n' }))); })"`;

const TODO = verbatim`# Ideas for later

- Streaming parser: parse large files chunk by chunk instead of holding the whole text.
- \`parseCsv\` option \`trim\` to strip spaces around unquoted fields.
- \`summarize\` over several columns at once.
- \`formatTable\` option \`align\` to override the numeric detection per column.
- Type declarations (\`index.d.ts\`) generated from the JSDoc.
`;

export const RELEASE_TURNS: readonly DemoTurn[] = [
  turn(
    "Let's release. Minor or patch?",
    'Minor: besides the two fixes we added features (`eol`, `mode`, `delimiter: auto`, ' +
      '`detectDelimiter`) and changed table alignment, so 0.3.0 becomes 0.4.0 per CONTRIBUTING.md.',
  ),
  turn(
    'Do the release steps from CONTRIBUTING.',
    'Released 0.4.0: the entries moved under `## 0.4.0` (with an empty `## Unreleased` above), ' +
      '`version` in package.json is 0.4.0, and the final test run passes (30 tests).',
    step(undefined, read('package.json')),
    step(
      undefined,
      edit('package.json', '"version": "0.3.0",', '"version": "0.4.0",'),
      edit('CHANGELOG.md', '## Unreleased\n\n', '## Unreleased\n\n## 0.4.0\n\n'),
    ),
    step(undefined, runTests),
  ),
  turn(
    'Show me the final CHANGELOG.',
    'CHANGELOG.md has an empty `## Unreleased` section followed by `## 0.4.0` with the six ' +
      'entries of today, fixes first.',
    step(undefined, read('CHANGELOG.md')),
  ),
  turn(
    'One last thing: the README usage example should show the new features. Update it.',
    "The usage example now parses a semicolon-separated CRLF file with `delimiter: 'auto'` and " +
      'ends with `stringifyCsv(rows, { eol })`; I ran the example and its output matches the ' +
      'comments.',
    step(undefined, read('README.md')),
    step(
      undefined,
      edit('README.md', USAGE_PARSE_OLD, USAGE_PARSE_NEW),
      edit('README.md', USAGE_END_OLD, USAGE_END_NEW),
    ),
    step('Running the example to make sure the comments are true.', shell(CHECK_USAGE)),
  ),
  turn(
    'Run the whole suite one more time and give me a summary of everything we changed today.',
    'All 30 tests pass. Today: fixed `median` for even counts and CRLF input; added `eol` to ' +
      "`stringifyCsv`, `mode` to `summarize`, `delimiter: 'auto'` with `detectDelimiter`; " +
      'right-aligned numeric table columns; documented everything in README.md, started ' +
      'CHANGELOG.md and released 0.4.0. Twelve tests were added; every fix started with a ' +
      'failing test.',
    step(undefined, runTests),
  ),
  turn(
    'Can you count the lines of code in src now?',
    '301 lines in six files: stats.js (89) and parse.js (83) are the largest, then table.js (48), ' +
      'stringify.js (44), detect.js (31) and index.js (6).',
    step(undefined, shell('wc -l src/*.js')),
  ),
  turn(
    "Thanks! Anything you'd suggest next?",
    'A few ideas: a streaming parser for large files; a `trim` option for spaces around unquoted ' +
      'fields; `summarize` over several columns at once; an `align` option for `formatTable`; and ' +
      'type declarations generated from the JSDoc.',
  ),
  turn(
    'Write those into TODO.md so we do not forget them.',
    'Written to TODO.md.',
    step(undefined, write('TODO.md', TODO)),
  ),
  turn("Great, that's all for today.", 'Thanks — see you next time!'),
];
