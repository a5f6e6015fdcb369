/**
 * A small JSON parser that remembers where every value sits in the source text, so the proxy can
 * replace one value (a tool result's content) by splicing text, never by re-serializing the
 * request. Strict RFC 8259; anything else throws `JsonSpanError` (the proxy then forwards the
 * request unchanged).
 */
import { DenseError } from '../utils/errors.js';

export class JsonSpanError extends DenseError {
  readonly code = 'PROXY_JSON_PARSE';
}

interface Span {
  /** Offset of the value's first character. */
  readonly start: number;
  /** Offset just past the value's last character. */
  readonly end: number;
}

export interface JsonObjectNode extends Span {
  readonly kind: 'object';
  readonly entries: ReadonlyMap<string, JsonNode>;
}
export interface JsonArrayNode extends Span {
  readonly kind: 'array';
  readonly items: readonly JsonNode[];
}
export interface JsonStringNode extends Span {
  readonly kind: 'string';
  readonly value: string;
}
export interface JsonScalarNode extends Span {
  readonly kind: 'number' | 'boolean' | 'null';
}
export type JsonNode = JsonObjectNode | JsonArrayNode | JsonStringNode | JsonScalarNode;

const WS = new Set([0x20, 0x09, 0x0a, 0x0d]);
const SCALAR = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null/y;

class Cursor {
  pos = 0;
  constructor(readonly text: string) {}

  skipWs(): void {
    while (this.pos < this.text.length && WS.has(this.text.charCodeAt(this.pos))) this.pos++;
  }

  fail(what: string): never {
    throw new JsonSpanError(`invalid JSON at offset ${this.pos}: ${what}`);
  }

  expect(char: string): void {
    if (this.text[this.pos] !== char) this.fail(`expected '${char}'`);
    this.pos++;
  }
}

/** Parses `text` (one JSON value, surrounding whitespace allowed). Throws JsonSpanError. */
export function parseJsonSpans(text: string): JsonNode {
  const cursor = new Cursor(text);
  cursor.skipWs();
  const node = parseValue(cursor, 0);
  cursor.skipWs();
  if (cursor.pos !== text.length) cursor.fail('trailing characters');
  return node;
}

const MAX_DEPTH = 256;

function parseValue(cursor: Cursor, depth: number): JsonNode {
  if (depth > MAX_DEPTH) cursor.fail('nesting too deep');
  const char = cursor.text[cursor.pos];
  if (char === '{') return parseObject(cursor, depth);
  if (char === '[') return parseArray(cursor, depth);
  if (char === '"') return parseString(cursor);
  return parseScalar(cursor);
}

function parseObject(cursor: Cursor, depth: number): JsonObjectNode {
  const start = cursor.pos;
  cursor.expect('{');
  const entries = new Map<string, JsonNode>();
  cursor.skipWs();
  if (cursor.text[cursor.pos] === '}') {
    cursor.pos++;
    return { kind: 'object', start, end: cursor.pos, entries };
  }
  for (;;) {
    cursor.skipWs();
    if (cursor.text[cursor.pos] !== '"') cursor.fail('expected a key');
    const key = parseString(cursor).value;
    cursor.skipWs();
    cursor.expect(':');
    cursor.skipWs();
    // A duplicate key makes "which value counts" ambiguous between parsers: refuse it.
    if (entries.has(key)) cursor.fail(`duplicate key '${key}'`);
    entries.set(key, parseValue(cursor, depth + 1));
    cursor.skipWs();
    if (cursor.text[cursor.pos] === ',') {
      cursor.pos++;
      continue;
    }
    cursor.expect('}');
    return { kind: 'object', start, end: cursor.pos, entries };
  }
}

function parseArray(cursor: Cursor, depth: number): JsonArrayNode {
  const start = cursor.pos;
  cursor.expect('[');
  const items: JsonNode[] = [];
  cursor.skipWs();
  if (cursor.text[cursor.pos] === ']') {
    cursor.pos++;
    return { kind: 'array', start, end: cursor.pos, items };
  }
  for (;;) {
    cursor.skipWs();
    items.push(parseValue(cursor, depth + 1));
    cursor.skipWs();
    if (cursor.text[cursor.pos] === ',') {
      cursor.pos++;
      continue;
    }
    cursor.expect(']');
    return { kind: 'array', start, end: cursor.pos, items };
  }
}

function parseString(cursor: Cursor): JsonStringNode {
  const { text } = cursor;
  const start = cursor.pos;
  let pos = start + 1;
  let escaped = false;
  for (;;) {
    const code = text.charCodeAt(pos);
    if (Number.isNaN(code)) cursor.fail('unterminated string');
    if (code === 0x22) break;
    if (code < 0x20) cursor.fail('control character in string');
    if (code === 0x5c) {
      escaped = true;
      pos += 2;
      continue;
    }
    pos++;
  }
  const end = pos + 1;
  cursor.pos = end;
  if (!escaped) return { kind: 'string', start, end, value: text.slice(start + 1, pos) };
  try {
    return { kind: 'string', start, end, value: JSON.parse(text.slice(start, end)) as string };
  } catch {
    return cursor.fail('bad escape in string');
  }
}

function parseScalar(cursor: Cursor): JsonScalarNode {
  const start = cursor.pos;
  SCALAR.lastIndex = start;
  const match = SCALAR.exec(cursor.text);
  if (match === null) return cursor.fail('unexpected character');
  cursor.pos = start + match[0].length;
  const word = match[0];
  const kind =
    word === 'null' ? 'null' : word === 'true' || word === 'false' ? 'boolean' : 'number';
  return { kind, start, end: cursor.pos };
}

/** The member `key` of an object node, if `node` is an object that has it. */
export function member(node: JsonNode | undefined, key: string): JsonNode | undefined {
  return node?.kind === 'object' ? node.entries.get(key) : undefined;
}

/** The string value of member `key`, if it is a string. */
export function stringMember(node: JsonNode | undefined, key: string): string | undefined {
  const value = member(node, key);
  return value?.kind === 'string' ? value.value : undefined;
}

/** The plain JS value of a node (for small parts such as tool-call parameters). */
export function nodeValue(text: string, node: JsonNode): unknown {
  return JSON.parse(text.slice(node.start, node.end)) as unknown;
}
