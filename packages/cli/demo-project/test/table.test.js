import assert from 'node:assert/strict';
import { test } from './harness.js';
import { formatTable } from '../src/table.js';

test('table: aligns columns under a header', () => {
  const text = formatTable([
    { name: 'apple', qty: '3' },
    { name: 'pear', qty: '5' },
  ]);
  assert.equal(text, 'name  | qty\n------+----\napple | 3\npear  | 5');
});

test('table: long cells are cut with an ellipsis', () => {
  const text = formatTable([{ note: 'abcdefghij' }], { maxWidth: 5 });
  assert.equal(text.split('\n')[2], 'abcd…');
});

test('table: no columns, no table', () => {
  assert.equal(formatTable([]), '');
});
