import assert from 'node:assert/strict';
import { test } from './harness.js';
import { stringifyCsv } from '../src/stringify.js';
import { parseCsv } from '../src/parse.js';

test('stringify: objects with a header row', () => {
  assert.equal(
    stringifyCsv([
      { name: 'apple', qty: 3 },
      { name: 'pear', qty: 5 },
    ]),
    'name,qty\napple,3\npear,5\n',
  );
});

test('stringify: quotes only the fields that need it', () => {
  assert.equal(stringifyCsv([['a,b', 'say "hi"', 'plain']]), '"a,b","say ""hi""",plain\n');
});

test('stringify: columns choose and order the fields', () => {
  assert.equal(stringifyCsv([{ a: 1, b: 2 }], { columns: ['b', 'a'] }), 'b,a\n2,1\n');
});

test('stringify: round-trips through parse', () => {
  const records = [
    { id: '1', note: 'multi\nline' },
    { id: '2', note: 'comma, inside' },
  ];
  assert.deepEqual(parseCsv(stringifyCsv(records)), records);
});
