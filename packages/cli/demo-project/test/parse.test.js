import assert from 'node:assert/strict';
import { test } from './harness.js';
import { parseCsv } from '../src/parse.js';

test('parse: header row becomes the field names', () => {
  assert.deepEqual(parseCsv('name,qty\napple,3\npear,5\n'), [
    { name: 'apple', qty: '3' },
    { name: 'pear', qty: '5' },
  ]);
});

test('parse: quoted fields keep delimiters, quotes and newlines', () => {
  const rows = parseCsv('a,b\n"x, y","say ""hi"""\n"two\nlines",z\n');
  assert.deepEqual(rows, [
    { a: 'x, y', b: 'say "hi"' },
    { a: 'two\nlines', b: 'z' },
  ]);
});

test('parse: header false returns arrays', () => {
  assert.deepEqual(parseCsv('1,2\n3,4', { header: false }), [
    ['1', '2'],
    ['3', '4'],
  ]);
});

test('parse: custom delimiter', () => {
  assert.deepEqual(parseCsv('a;b\n1;2\n', { delimiter: ';' }), [{ a: '1', b: '2' }]);
});

test('parse: empty lines are skipped', () => {
  assert.deepEqual(parseCsv('a\n\n1\n\n'), [{ a: '1' }]);
});

test('parse: missing cells become empty strings', () => {
  assert.deepEqual(parseCsv('a,b\n1\n'), [{ a: '1', b: '' }]);
});

test('parse: a bad delimiter is a RangeError naming it', () => {
  assert.throws(() => parseCsv('a', { delimiter: ';;' }), /delimiter must be one character/);
});
