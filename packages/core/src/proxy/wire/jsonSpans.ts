/**
 * A small JSON parser that remembers where every value sits in the source text, so the proxy can
 * replace one value (a tool result's content) by splicing text, never by re-serializing the
 * request. Strict RFC 8259; anything else throws `JsonSpanError` (the proxy then forwards the
 * request unchanged).
 */
import { DenseError } from '../../utils/errors.js';
import type { TextSlices } from './segmentedText.js';

export class JsonSpanError extends DenseError {
  readonly code = 'PROXY_JSON_PARSE';
}

interface Span {
  /** Offset of the value's first character. */
  readonly start: number;
  /** Offset just past the value's last character. */
  readonly end: number;
}

/**
 * An object's members as two parallel arrays, in text order: a conversation's tree has tens of
 * thousands of small objects, and a `Map` each would be most of its memory. Objects of one parse
 * with the same member names in the same order share one `keys` array.
 */
export interface JsonObjectNode extends Span {
  readonly kind: 'object';
  readonly keys: readonly string[];
  /** `values[i]` is the value of member `keys[i]`. */
  readonly values: readonly JsonNode[];
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

/**
 * Where the parser is: a position in the current piece of the text. A text given as pieces is
 * read one piece at a time (never joined): a string or number that runs on past a piece's end is
 * put together from the pieces it spans.
 */
class Cursor {
  pos = 0;
  /** The piece being read. */
  text: string;
  /** Offset in the whole text of `text`'s first character: spans are in the whole text's. */
  base: number;
  /** Index of the piece after `text`. */
  private following = 1;
  /** One `keys` array per sequence of member names seen in this parse. */
  readonly shapes = new KeyShapes();
  constructor(
    private readonly pieces: readonly string[],
    /** Copy string values out of the text, so a value kept longer does not keep the whole text. */
    readonly ownStrings = false,
    base = 0,
  ) {
    this.text = pieces[0] ?? '';
    this.base = base;
  }

  /** The whole text's offset of position `pos` of `text`. */
  at(pos: number = this.pos): number {
    return this.base + pos;
  }

  /**
   * Moves on to the next piece when the current one is read to its end (a position past the end
   * carries over); false when there is no next piece or the current one is not yet read.
   */
  advance(): boolean {
    if (this.pos < this.text.length || this.following >= this.pieces.length) return false;
    this.pos -= this.text.length;
    this.base += this.text.length;
    this.text = this.pieces[this.following++] as string;
    return true;
  }

  /** Whether `chars` characters from `pos` on reach past the current piece into a next one. */
  nearEnd(chars: number): boolean {
    return this.pos + chars >= this.text.length && this.following < this.pieces.length;
  }

  /** The text from `pos` on, with up to `chars` characters of the following pieces. */
  ahead(chars: number): string {
    let joined = this.text.slice(this.pos);
    let wanted = chars;
    for (let index = this.following; wanted > 0 && index < this.pieces.length; index++) {
      const piece = (this.pieces[index] as string).slice(0, wanted);
      joined += piece;
      wanted -= piece.length;
    }
    return joined;
  }

  /** Moves `chars` characters on, across pieces. */
  skip(chars: number): void {
    this.pos += chars;
    while (this.advance());
  }

  skipWs(): void {
    do {
      while (this.pos < this.text.length && WS.has(this.text.charCodeAt(this.pos))) this.pos++;
    } while (this.advance());
  }

  fail(what: string): never {
    throw new JsonSpanError(`invalid JSON at offset ${this.at()}: ${what}`);
  }

  expect(char: string): void {
    if (this.text[this.pos] !== char) this.fail(`expected '${char}'`);
    this.pos++;
  }
}

/** Parses `text` (one JSON value, surrounding whitespace allowed). Throws JsonSpanError. */
export function parseJsonSpans(text: string): JsonNode {
  const cursor = new Cursor([text]);
  cursor.skipWs();
  const node = parseValue(cursor, 0);
  return finishText(cursor, node);
}

/**
 * Where to resume parsing a text whose start is known to equal an earlier, parsed one: inside the
 * root object, in its array member `key`, just before item `items.length`.
 */
export interface ArrayResume {
  readonly rootStart: number;
  /** The names of the root members before `key`, in text order (all inside the known part). */
  readonly keysBefore: readonly string[];
  /** Their values, `valuesBefore[i]` that of `keysBefore[i]`. */
  readonly valuesBefore: readonly JsonNode[];
  readonly key: string;
  readonly arrayStart: number;
  /**
   * The earlier array's items; its first `count` are the items before the resume point (at least
   * one: the point follows a comma).
   */
  readonly items: readonly JsonNode[];
  readonly count: number;
  /** Offset of the next item's first character: where the text still to parse starts. */
  readonly at: number;
}

/**
 * Parses `rest`, the text from offset `resume.at` on (one string, or pieces that joined are it),
 * reusing what came before: the result (spans in the whole text's offsets) equals
 * `parseJsonSpans(text)` of the whole text whenever it starts with the earlier text's first
 * `resume.at` characters (the caller checks that). Only `rest` is read. String values read here
 * are copies. Throws JsonSpanError.
 */
export function parseJsonSpansFrom(
  rest: string | readonly string[],
  resume: ArrayResume,
): JsonNode {
  const cursor = new Cursor(typeof rest === 'string' ? [rest] : rest, true, resume.at);
  const items = resume.items.slice(0, resume.count);
  items.push(parseValue(cursor, 2));
  const array = finishArray(cursor, 1, resume.arrayStart, items);
  const members: Members = {
    keys: [...resume.keysBefore, resume.key],
    values: [...resume.valuesBefore, array],
  };
  return finishText(cursor, finishObject(cursor, 0, resume.rootStart, members));
}

function finishText(cursor: Cursor, node: JsonNode): JsonNode {
  cursor.skipWs();
  if (cursor.pos < cursor.text.length) cursor.fail('trailing characters');
  return node;
}

const MAX_DEPTH = 256;

function parseValue(cursor: Cursor, depth: number): JsonNode {
  if (depth > MAX_DEPTH) cursor.fail('nesting too deep');
  while (cursor.advance());
  const char = cursor.text[cursor.pos];
  if (char === '{') return parseObject(cursor, depth);
  if (char === '[') return parseArray(cursor, depth);
  if (char === '"') return parseString(cursor);
  return parseScalar(cursor);
}

/** An object's members while it is parsed. */
interface Members {
  readonly keys: string[];
  readonly values: JsonNode[];
  /** The names so far, once there are more than `SCANNED_KEYS` of them. */
  seen?: Set<string>;
}

function parseObject(cursor: Cursor, depth: number): JsonObjectNode {
  const start = cursor.at();
  cursor.expect('{');
  const members: Members = { keys: [], values: [] };
  cursor.skipWs();
  if (cursor.text[cursor.pos] === '}') {
    cursor.pos++;
    return objectNode(cursor, start, members);
  }
  parseEntry(cursor, depth, members);
  return finishObject(cursor, depth, start, members);
}

function parseEntry(cursor: Cursor, depth: number, members: Members): void {
  cursor.skipWs();
  if (cursor.text[cursor.pos] !== '"') cursor.fail('expected a key');
  const key = parseString(cursor).value;
  cursor.skipWs();
  cursor.expect(':');
  cursor.skipWs();
  // A duplicate key makes "which value counts" ambiguous between parsers: refuse it.
  if (hasKey(members, key)) cursor.fail(`duplicate key '${key}'`);
  members.keys.push(key);
  members.seen?.add(key);
  members.values.push(parseValue(cursor, depth + 1));
}

/** Members past which a duplicate is looked for in a set kept beside them, not by scanning. */
const SCANNED_KEYS = 16;

function hasKey(members: Members, key: string): boolean {
  if (members.keys.length <= SCANNED_KEYS) return members.keys.includes(key);
  members.seen ??= new Set(members.keys);
  return members.seen.has(key);
}

/** The rest of an object after one of its members. */
function finishObject(
  cursor: Cursor,
  depth: number,
  start: number,
  members: Members,
): JsonObjectNode {
  for (;;) {
    cursor.skipWs();
    if (cursor.text[cursor.pos] === ',') {
      cursor.pos++;
      parseEntry(cursor, depth, members);
      continue;
    }
    cursor.expect('}');
    return objectNode(cursor, start, members);
  }
}

function objectNode(cursor: Cursor, start: number, members: Members): JsonObjectNode {
  // Shapes are shared by small objects (messages, blocks); a wide one keeps its own names, so the
  // trie never grows a node per member of one huge object.
  const keys =
    members.keys.length > SCANNED_KEYS
      ? ownKeys(members.keys, cursor.ownStrings)
      : cursor.shapes.keysFor(members.keys, cursor.ownStrings);
  // A copy of exact length: an array grown by `push` keeps spare capacity.
  return { kind: 'object', start, end: cursor.at(), keys, values: members.values.slice() };
}

/**
 * The `keys` array objects with a given sequence of member names share, found by walking a trie
 * of the sequences seen so far.
 */
class KeyShapes {
  private readonly root: Shape = { next: undefined, keys: undefined };

  keysFor(keys: readonly string[], own: boolean): readonly string[] {
    let shape = this.root;
    for (const key of keys) {
      shape.next ??= new Map();
      let next = shape.next.get(key);
      if (next === undefined) {
        next = { next: undefined, keys: undefined };
        shape.next.set(key, next);
      }
      shape = next;
    }
    shape.keys ??= ownKeys(keys, own);
    return shape.keys;
  }
}
/** A kept copy of `keys` (each name copied out of the text when `own`). */
function ownKeys(keys: readonly string[], own: boolean): readonly string[] {
  return own ? keys.map(ownCopy) : keys.slice();
}

interface Shape {
  next: Map<string, Shape> | undefined;
  keys: readonly string[] | undefined;
}

function parseArray(cursor: Cursor, depth: number): JsonArrayNode {
  const start = cursor.at();
  cursor.expect('[');
  const items: JsonNode[] = [];
  cursor.skipWs();
  if (cursor.text[cursor.pos] === ']') {
    cursor.pos++;
    return { kind: 'array', start, end: cursor.at(), items };
  }
  items.push(parseValue(cursor, depth + 1));
  return finishArray(cursor, depth, start, items);
}

/** The rest of an array after one of its items. */
function finishArray(
  cursor: Cursor,
  depth: number,
  start: number,
  items: JsonNode[],
): JsonArrayNode {
  for (;;) {
    cursor.skipWs();
    if (cursor.text[cursor.pos] === ',') {
      cursor.pos++;
      cursor.skipWs();
      items.push(parseValue(cursor, depth + 1));
      continue;
    }
    cursor.expect(']');
    // A copy of exact length: an array grown by `push` keeps spare capacity.
    return { kind: 'array', start, end: cursor.at(), items: items.slice() };
  }
}

function parseString(cursor: Cursor): JsonStringNode {
  const { text } = cursor;
  const start = cursor.pos;
  const scanned = scanString(text, start + 1);
  if (scanned < CONTROL) return parseCutString(cursor, scanned);
  if (scanned === CONTROL) cursor.fail('control character in string');
  const pos = scanned >> 1;
  const end = pos + 1;
  cursor.pos = end;
  const spanStart = cursor.at(start);
  const spanEnd = cursor.at(end);
  if ((scanned & 1) === 0) {
    const value = text.slice(start + 1, pos);
    const kept = cursor.ownStrings ? ownCopy(value) : value;
    return { kind: 'string', start: spanStart, end: spanEnd, value: kept };
  }
  const value = unescaped(cursor, text.slice(start, end));
  return { kind: 'string', start: spanStart, end: spanEnd, value };
}

/** `scanString`: a control character, which JSON does not allow in a string. */
const CONTROL = -1;

/**
 * Scans a string's characters from `pos` (after its opening quote or an escape's second
 * character) to its closing quote: that quote's position × 2, plus 1 when the scan met an escape;
 * `CONTROL`; or, when the text ends first, `-3 - p` for `p` the position past the end the scan
 * reached (the text's length, or one more when its last character starts an escape). The loop is
 * a function of its own, without calls, so the engine optimizes it whatever its callers do.
 */
function scanString(text: string, pos: number): number {
  let at = pos;
  let escaped = 0;
  for (;;) {
    const code = text.charCodeAt(at);
    if (code === 0x22) return at * 2 + escaped;
    if (code !== code) return -3 - at;
    if (code < 0x20) return CONTROL;
    if (code === 0x5c) {
      escaped = 1;
      at += 2;
      continue;
    }
    at++;
  }
}

/** The value of a quoted string (JSON.parse: escapes resolved, a string of its own). */
function unescaped(cursor: Cursor, quoted: string): string {
  try {
    return JSON.parse(quoted) as string;
  } catch {
    return cursor.fail('bad escape in string');
  }
}

/**
 * A string that runs on past the end of its piece (the cursor at its opening quote; `scanned`,
 * what scanning its first piece gave): its value joined from the pieces it spans.
 */
function parseCutString(cursor: Cursor, scanned: number): JsonStringNode {
  const spanStart = cursor.at();
  const parts: string[] = [];
  let from = cursor.pos;
  let result = scanned;
  while (result < CONTROL) {
    parts.push(cursor.text.slice(from));
    cursor.pos = -3 - result;
    if (!cursor.advance()) cursor.fail('unterminated string');
    from = 0;
    result = scanString(cursor.text, cursor.pos);
  }
  if (result === CONTROL) cursor.fail('control character in string');
  const end = (result >> 1) + 1;
  cursor.pos = end;
  parts.push(cursor.text.slice(0, end));
  const value = unescaped(cursor, parts.join(''));
  return { kind: 'string', start: spanStart, end: cursor.at(end), value };
}

/**
 * A copy of `value` that does not point into the string it was sliced from: through bytes one
 * character wide when every character is ASCII (a one-byte string), else two (UTF-16, copied as
 * is: ~5× faster than a UTF-8 round trip).
 */
function ownCopy(value: string): string {
  if (value.length < 16) return value;
  return Buffer.byteLength(value, 'utf8') === value.length
    ? Buffer.from(value, 'latin1').toString('latin1')
    : Buffer.from(value, 'utf16le').toString('utf16le');
}

/** Characters past a piece's end a number may run on into (longer ones are not JSON we meet). */
const SCALAR_AHEAD = 1024;

function parseScalar(cursor: Cursor): JsonScalarNode {
  const start = cursor.at();
  // A scalar close to the piece's end may run on into the next one.
  const near = cursor.nearEnd(SCALAR_AHEAD);
  SCALAR.lastIndex = near ? 0 : cursor.pos;
  const match = SCALAR.exec(near ? cursor.ahead(SCALAR_AHEAD) : cursor.text);
  if (match === null) return cursor.fail('unexpected character');
  const word = match[0];
  cursor.skip(word.length);
  const kind =
    word === 'null' ? 'null' : word === 'true' || word === 'false' ? 'boolean' : 'number';
  return { kind, start, end: start + word.length };
}

/** The member `key` of an object node, if `node` is an object that has it. */
export function member(node: JsonNode | undefined, key: string): JsonNode | undefined {
  if (node?.kind !== 'object') return undefined;
  const index = node.keys.indexOf(key);
  return index < 0 ? undefined : node.values[index];
}

/** The string value of member `key`, if it is a string. */
export function stringMember(node: JsonNode | undefined, key: string): string | undefined {
  const value = member(node, key);
  return value?.kind === 'string' ? value.value : undefined;
}

/** The plain JS value of a node (for small parts such as tool-call parameters). */
export function nodeValue(text: TextSlices, node: JsonNode): unknown {
  return JSON.parse(text.slice(node.start, node.end)) as unknown;
}
