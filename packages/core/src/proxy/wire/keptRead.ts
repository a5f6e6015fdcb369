/**
 * What the read cache keeps of a read (`requestReadCache.ts`): its parse, reader state, body and
 * text, and a checkpoint at each of its last messages — the byte offset where the message starts,
 * the sha1 state of the body before it and, on Anthropic, whether that text asks for the 1-hour
 * cache. A later request whose bytes before a checkpoint are the kept body's resumes there.
 */
import { createHash, type Hash } from 'node:crypto';
import { hasOneHourTtl } from '../../cache/cacheRules.js';
import { member, type JsonArrayNode, type JsonNode, type JsonObjectNode } from './jsonSpans.js';
import type { ReaderState } from './readerState.js';
import type { SegmentedBytes } from './segmentedBytes.js';
import type { SegmentedText } from './segmentedText.js';
import { byteAnchors, type ByteAnchors } from './byteAnchors.js';
import type { WireApi } from './wireHistory.js';

/** The identity of a kept read (compared by reference only). */
export type ReadKey = object;

export interface Checkpoint {
  /** Index of the message that starts at `offset`. */
  readonly index: number;
  readonly offset: number;
  /** Bytes of the body before `offset`. */
  readonly bytes: number;
  /** sha1 state after those bytes (copy before use). */
  readonly hash: Hash;
  /** Anthropic: whether the text before `offset` asks for the 1-hour cache. */
  readonly oneHourTtl?: boolean;
}

/** A read the cache keeps. */
export interface KeptRead {
  readonly key: ReadKey;
  readonly root: JsonObjectNode;
  readonly array: JsonArrayNode;
  readonly state: ReaderState;
  /**
   * The body read, later requests compare their prefix with it: a resumed read's is the kept
   * read's bytes before its checkpoint and a copy of its own new bytes, never its buffer.
   */
  readonly body: SegmentedBytes;
  /** Its text: a later request's text starts with its text before the checkpoint it resumes at. */
  readonly text: SegmentedText;
  /** In ascending offset order. */
  readonly checkpoints: readonly Checkpoint[];
  readonly anchors: ByteAnchors | undefined;
  readonly chars: number;
}

/** Messages from the end that get a checkpoint (the previous newest message and two before it). */
export const CHECKPOINTS = 3;

export interface BodyInput {
  readonly api: WireApi;
  readonly body: Buffer;
  /** Absent: decoded from `body`. */
  readonly text: string | undefined;
}
export type TextInput = Omit<BodyInput, 'text'> & {
  readonly text: SegmentedText;
  /**
   * The body bytes to keep: `body` itself after a full read; after a resumed one, the kept read's
   * bytes before the checkpoint and a copy of the rest, so the request's buffer is not kept.
   */
  readonly kept: SegmentedBytes;
};

export const arrayKey = (api: WireApi): string =>
  api === 'openai-responses' ? 'input' : 'messages';

/** The latest checkpoint of `entry` before which `input` has the same bytes as the entry's body. */
export function verifiedCheckpoint(input: BodyInput, entry: KeptRead): Checkpoint | undefined {
  for (let i = entry.checkpoints.length - 1; i >= 0; i--) {
    const point = entry.checkpoints[i] as Checkpoint;
    if (input.body.length <= point.bytes) continue;
    if (input.text !== undefined && input.text.length <= point.offset) continue;
    if (entry.body.startsLike(input.body, point.bytes)) return point;
  }
  return undefined;
}

/** The entry to keep after a read, with a checkpoint at each of its last messages. */
export function keptRead(
  input: TextInput,
  root: JsonNode,
  state: ReaderState,
  known: readonly Checkpoint[],
  /** Anchors of a kept read whose first `messages` messages this request has byte for byte. */
  inherited?: { readonly anchors: ByteAnchors | undefined; readonly messages: number },
): KeptRead | undefined {
  const array = member(root, arrayKey(input.api));
  if (root.kind !== 'object' || array?.kind !== 'array') return undefined;
  const { items } = array;
  // Every character is one byte when the lengths agree (ASCII): no counting needed.
  const ascii = input.body.length === input.text.length;
  const ttl = input.api === 'anthropic';
  let counted: Omit<Checkpoint, 'index'> = known.at(-1) ?? {
    offset: 0,
    bytes: 0,
    hash: createHash('sha1'),
    ...(ttl ? { oneHourTtl: false } : {}),
  };
  const checkpoints = known.filter((point) => point.index >= items.length - CHECKPOINTS);
  for (let index = Math.max(1, items.length - CHECKPOINTS); index < items.length; index++) {
    const offset = (items[index] as JsonNode).start;
    if (offset <= counted.offset) continue;
    // The text between as the pieces it spans: never joined (`"ttl"…"1h"` holds no `{`).
    const between = ascii && !ttl ? [] : input.text.parts(counted.offset, offset);
    const bytes = ascii
      ? offset
      : between.reduce((sum, part) => sum + Buffer.byteLength(part, 'utf8'), counted.bytes);
    const hash = counted.hash.copy().update(input.body.subarray(counted.bytes, bytes));
    const oneHourTtl = ttl
      ? { oneHourTtl: counted.oneHourTtl === true || between.some((part) => hasOneHourTtl(part)) }
      : {};
    counted = { offset, bytes, hash, ...oneHourTtl };
    checkpoints.push({ index, offset, bytes, hash, ...oneHourTtl });
  }
  return {
    key: {},
    root,
    array,
    state,
    body: input.kept,
    text: input.text,
    checkpoints,
    anchors: ascii ? undefined : byteAnchors(input.text, items, inherited),
    chars: input.text.length,
  };
}
