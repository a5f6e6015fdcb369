/** Chapter 2 of the demo session: a wrong median, fixed test-first. */
import {
  edit,
  read,
  runFailingTests,
  runTests,
  step,
  turn,
  verbatim,
  write,
  type DemoTurn,
} from './scriptBuilders.js';

const ODD_MEDIAN_TEST = verbatim`test('stats: median of an odd number of values', () => {
  assert.equal(median([7, 1, 3]), 3);
});
`;

const EVEN_MEDIAN_TEST = verbatim`
test('stats: median of an even number of values is the mean of the middle two', () => {
  assert.equal(median([4, 1, 3, 2]), 2.5);
});
`;

const OLD_MEDIAN = verbatim`  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];`;

const NEW_MEDIAN = verbatim`  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;`;

export const CHANGELOG_START = verbatim`# Changelog

## Unreleased

- Fixed: \`median\` (and \`summarize\`) of an even number of values is the mean of the two middle values.
`;

export const MEDIAN_TURNS: readonly DemoTurn[] = [
  turn(
    'A user reports that summarize() gives median 3 for the values 1, 2, 3, 4. It should be 2.5. Can you find out why?',
    'Found it: `median` sorts the values and returns `sorted[Math.floor(length / 2)]`. For an odd ' +
      'count that is the middle value, but for an even count it is the upper of the two middle ' +
      'values — 3 for [1, 2, 3, 4]. It should return the mean of the two middle values.',
    step(undefined, read('src/stats.js')),
  ),
  turn(
    'Test first, as CONTRIBUTING says: add a failing test.',
    'Added `stats: median of an even number of values is the mean of the middle two`. It fails ' +
      'as expected (3 !== 2.5); the other 18 tests still pass.',
    step(undefined, read('test/stats.test.js')),
    step(
      undefined,
      edit('test/stats.test.js', ODD_MEDIAN_TEST, ODD_MEDIAN_TEST + EVEN_MEDIAN_TEST),
    ),
    step(undefined, runFailingTests),
  ),
  turn(
    'Good. Now fix median.',
    'Fixed: for an even count `median` now averages the two middle values, and its JSDoc says so. ' +
      'All 19 tests pass.',
    step(
      undefined,
      edit('src/stats.js', OLD_MEDIAN, NEW_MEDIAN),
      edit(
        'src/stats.js',
        ' * The middle value of the sorted values.\n',
        ' * The middle value of the sorted values; for an even count, the mean of the two middle values.\n',
      ),
    ),
    step(undefined, runTests),
  ),
  turn(
    'Add the changelog entry.',
    'CHANGELOG.md did not exist yet, so I created it with an `## Unreleased` section holding the ' +
      '`Fixed:` line for the median.',
    step(undefined, write('CHANGELOG.md', CHANGELOG_START)),
  ),
  turn(
    'Let me see the final stats.js once more.',
    'Here it is: `median` copies and sorts the values, takes `middle = Math.floor(length / 2)` ' +
      'and returns `sorted[middle]` for an odd count or the mean of `sorted[middle - 1]` and ' +
      '`sorted[middle]` for an even one; `summarize` is unchanged.',
    step(undefined, read('src/stats.js')),
  ),
];
