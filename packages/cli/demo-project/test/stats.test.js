import assert from 'node:assert/strict';
import { test } from './harness.js';
import { summarize, median, mean } from '../src/stats.js';

const rows = [{ qty: '3' }, { qty: '5' }, { qty: 'n/a' }, { qty: '' }, { qty: '10' }];

test('stats: summarize skips cells that are not numbers', () => {
  assert.deepEqual(summarize(rows, 'qty'), {
    count: 3,
    sum: 18,
    mean: 6,
    median: 5,
    min: 3,
    max: 10,
  });
});

test('stats: median of an odd number of values', () => {
  assert.equal(median([7, 1, 3]), 3);
});

test('stats: mean of nothing is null', () => {
  assert.equal(mean([]), null);
});

test('stats: a column without numbers has only a count', () => {
  assert.deepEqual(summarize([{ qty: 'x' }], 'qty'), {
    count: 0,
    sum: null,
    mean: null,
    median: null,
    min: null,
    max: null,
  });
});
