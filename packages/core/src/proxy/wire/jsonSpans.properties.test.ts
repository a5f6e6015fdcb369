import { fc, test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import {
  JsonSpanError,
  member,
  parseJsonSpans,
  parseJsonSpansFrom,
  type ArrayResume,
  type JsonNode,
  type JsonObjectNode,
} from './jsonSpans.js';
import { SegmentedText } from './segmentedText.js';

function fail(why: string): never {
  throw new Error(why);
}

/** Every object node of the tree, depth first. */
function objects(node: JsonNode, found: JsonObjectNode[] = []): JsonObjectNode[] {
  if (node.kind === 'object') {
    found.push(node);
    for (const child of node.values) objects(child, found);
  }
  if (node.kind === 'array') for (const child of node.items) objects(child, found);
  return found;
}

/** Checks that `node` and its members read back as `value` from `text`. */
function expectMembers(text: string, node: JsonNode, value: unknown): void {
  const slices = SegmentedText.of(text);
  expect(JSON.parse(slices.slice(node.start, node.end))).toEqual(value);
  if (node.kind === 'array') {
    (value as unknown[]).forEach((item, i) => expectMembers(text, node.items[i] as JsonNode, item));
  }
  if (node.kind !== 'object') return;
  const record = value as Record<string, unknown>;
  expect(node.keys).toEqual(Object.keys(record));
  expect(node.values).toHaveLength(node.keys.length);
  for (const [key, inner] of Object.entries(record)) {
    const found = member(node, key);
    expect(found).toBeDefined();
    expectMembers(text, found as JsonNode, inner);
  }
  expect(member(node, '\u0000absent')).toBeUndefined();
}

/**
 * `whole` parsed, and where to resume it before message `count` of its `messages` member: the
 * resume point and the text from there on (undefined when there is no such message).
 */
function resumeAt(whole: string, count: number) {
  const earlier = parseJsonSpans(whole) as JsonObjectNode;
  const index = earlier.keys.indexOf('messages');
  const array = earlier.values[index];
  if (array?.kind !== 'array') throw new Error('no messages array');
  const item = array.items[count];
  if (item === undefined) return undefined;
  const resume: ArrayResume = {
    rootStart: earlier.start,
    keysBefore: earlier.keys.slice(0, index),
    valuesBefore: earlier.values.slice(0, index),
    key: 'messages',
    arrayStart: array.start,
    items: array.items,
    count,
    at: item.start,
  };
  return { earlier, resume, rest: whole.slice(item.start) };
}

const OBJECT = fc.dictionary(fc.string({ maxLength: 6 }), fc.jsonValue({ maxDepth: 3 }), {
  maxKeys: 24,
});

describe('parseJsonSpans object members', () => {
  test.prop([fc.jsonValue({ maxDepth: 4 })], { numRuns: 300 })(
    '#24.4 member() and keys/values give every member of random JSON, in text order',
    (value) => {
      const text = JSON.stringify(value, null, 1);
      expectMembers(text, parseJsonSpans(text), JSON.parse(text));
    },
  );

  test.prop([OBJECT], { numRuns: 200 })(
    '#24.4 an object of many members (a set checks duplicates) reads back whole',
    (value) => {
      const text = JSON.stringify(value);
      expectMembers(text, parseJsonSpans(text), JSON.parse(text));
    },
  );

  test.prop([fc.array(OBJECT, { minLength: 1, maxLength: 6 }), fc.nat()], { numRuns: 200 })(
    '#24.4 a resumed parse gives the same members as a full one',
    (messages, cut) => {
      const whole = JSON.stringify({ model: 'm', messages, tail: 1 });
      const point = resumeAt(whole, 1 + (cut % messages.length));
      if (point === undefined) return;
      expect(parseJsonSpansFrom(point.rest, point.resume)).toEqual(point.earlier);
    },
  );

  test.prop(
    [
      fc.array(OBJECT, { minLength: 2, maxLength: 6 }),
      fc.array(fc.nat(), { maxLength: 12 }),
      fc.boolean(),
    ],
    { numRuns: 300 },
  )(
    '#36 a resumed parse of the rest in pieces cut anywhere equals the parse of the whole text',
    (messages, cuts, spaced) => {
      const whole = JSON.stringify(
        { model: 'm', messages, tail: [1.5e3, true, null] },
        null,
        spaced ? 1 : 0,
      );
      const { earlier, resume, rest } = resumeAt(whole, 1) ?? fail('no second message');
      const offsets = [...new Set(cuts.map((cut) => cut % (rest.length + 1)))].sort(
        (a, b) => a - b,
      );
      const pieces = [0, ...offsets].map((from, i) => rest.slice(from, offsets[i] ?? rest.length));
      expect(pieces.join('')).toBe(rest);
      expect(parseJsonSpansFrom(pieces, resume)).toEqual(earlier);
    },
  );

  test('#36 a string, an escape, a number and a word cut between pieces read as in one text', () => {
    const whole = String.raw`{"messages":[{"a":"x\\"},{"b":"one\\\ntwo\"","n":-12.5e+3,"t":true}]}`;
    const { earlier, resume, rest } = resumeAt(whole, 1) ?? fail('no second message');
    for (let cut = 0; cut <= rest.length; cut++) {
      for (const pieces of [
        [rest.slice(0, cut), rest.slice(cut)],
        [rest.slice(0, cut), '', rest.slice(cut)],
      ]) {
        expect(parseJsonSpansFrom(pieces, resume)).toEqual(earlier);
      }
    }
    expect(() => parseJsonSpansFrom([rest.slice(0, 9), rest.slice(9, -3)], resume)).toThrow(
      JsonSpanError,
    );
  });

  test('#24.4 objects with the same member names in the same order share one keys array', () => {
    const text = JSON.stringify([
      { type: 'text', text: 'a' },
      { type: 'text', text: 'b' },
      { text: 'c', type: 'text' },
      { type: 'image' },
    ]);
    const [first, second, swapped, shorter] = objects(parseJsonSpans(text));
    expect(first?.keys).toBe(second?.keys);
    expect(swapped?.keys).toEqual(['text', 'type']);
    expect(shorter?.keys).toEqual(['type']);
  });

  test('#24.4 a wide object keeps its own names: shapes are shared by small objects only', () => {
    // A shape per member of one huge object would hold a trie node per member while parsing.
    const wide = Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`k${i}`, i]));
    const [first, second] = objects(parseJsonSpans(JSON.stringify([wide, wide])));
    expect(first?.keys).toEqual(Object.keys(wide));
    expect(first?.keys).not.toBe(second?.keys);
  });

  test('#24.4 a duplicate key is refused, in small and in large objects', () => {
    const many = Array.from({ length: 40 }, (_, i) => `"k${i}":${i}`).join(',');
    expect(() => parseJsonSpans('{"a":1,"a":2}')).toThrow(/duplicate key 'a'/);
    expect(() => parseJsonSpans(`{${many},"k3":0}`)).toThrow(/duplicate key 'k3'/);
  });

  test('#24.4 a very wide object is checked for duplicates against one set, not one per member', () => {
    // 20,000 members: a set rebuilt for every member would take ~2·10⁸ insertions (~20 s).
    const wide = Array.from({ length: 20_000 }, (_, i) => `"k${i}":${i}`).join(',');
    const node = parseJsonSpans(`{${wide}}`);
    expect(node.kind === 'object' ? node.keys.length : 0).toBe(20_000);
    expect(() => parseJsonSpans(`{${wide},"k19999":0}`)).toThrow(/duplicate key 'k19999'/);
  });
});
