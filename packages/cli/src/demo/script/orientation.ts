/** Chapter 1 of the demo session: the model gets to know the project and its rules. */
import {
  grep,
  listDirectory,
  read,
  runTests,
  step,
  turn,
  type DemoTurn,
} from './scriptBuilders.js';

export const ORIENTATION_TURNS: readonly DemoTurn[] = [
  turn(
    'Hi! This is tinycsv, a small CSV library I maintain. Have a look around and tell me how it is organised and how the tests run.',
    'tinycsv is an ES module package with no dependencies. `src/` has one module per job — ' +
      '`parse.js` (CSV text to records), `stringify.js` (records to CSV), `stats.js` (column ' +
      'statistics) and `table.js` (aligned text tables) — re-exported by `src/index.js`. The tests ' +
      'live in `test/*.test.js`, register with a tiny harness in `test/harness.js` and run with ' +
      '`node test/run.js` (also `npm test`). There is no CHANGELOG.md yet.',
    step('Let me look at the layout first.', listDirectory()),
    step(undefined, read('package.json'), read('README.md')),
  ),
  turn(
    'These are our contribution rules, please follow them for everything today: @CONTRIBUTING.md',
    'Understood. I will keep to them: no dependencies; a failing test before every fix; pure ' +
      'functions that never print or mutate; errors that name the bad argument; every option ' +
      'documented in README.md in the same change; a CHANGELOG.md line under `## Unreleased` for ' +
      'each user-visible change (I will create the file with the first entry, it does not exist ' +
      'yet); two-space indentation, single quotes, JSDoc on exports, functions under 40 lines.',
  ),
  turn(
    'Run the test suite so we know where we stand.',
    'All 18 tests pass: 7 for the parser, 4 for stringify, 4 for stats and 3 for tables.',
    step(undefined, runTests),
  ),
  turn(
    'Where is the header handling implemented?',
    'In two places: `parseCsv` in `src/parse.js` takes the first row as field names when ' +
      '`header` is true (the default), and `stringifyCsv` in `src/stringify.js` writes a header ' +
      'line from `columns` (or the first record’s keys) unless `header` is false. `formatTable` ' +
      'always prints a header row, but that is presentation only.',
    step(undefined, grep('header', 'src')),
  ),
  turn(
    'Show me the parser.',
    '`splitRows` is a small state machine over the characters: inside quotes a doubled quote ' +
      'becomes one quote and a single quote ends the quoted part; outside quotes the delimiter ' +
      'ends a field and `\\n` ends a row. `parseCsv` validates the arguments, drops empty lines ' +
      'and, with `header`, turns each row into an object keyed by the first row.',
    step(undefined, read('src/parse.js')),
  ),
];
