import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { jsonErrorOffset } from './jsonErrorOffset.js';

describe('jsonErrorOffset', () => {
  it.each([
    ['{"a": [1, 2, oops]}', 13],
    ['{"a" 1}', 5],
    ['[1, 2', 5],
    ['{"a": 1} extra', 9],
    ['"unterminated', 13],
    ['', 0],
  ])('finds the error in %j at %i', (text, offset) => {
    expect(jsonErrorOffset(text)).toBe(offset);
  });

  test.prop([fc.jsonValue()], { numRuns: 200 })(
    'accepts whatever JSON.stringify writes',
    (value) => {
      expect(jsonErrorOffset(JSON.stringify(value, null, 2))).toBeUndefined();
    },
  );

  test.prop([fc.string({ maxLength: 40 })], { numRuns: 300 })(
    'agrees with JSON.parse on whether a text is valid',
    (text) => {
      let valid = true;
      try {
        JSON.parse(text);
      } catch {
        valid = false;
      }
      expect(jsonErrorOffset(text) === undefined).toBe(valid);
    },
  );
});
