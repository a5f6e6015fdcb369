/**
 * Room `wire/`: read and parse requests into a WireHistory; imports images/ only.
 *
 * Reads a proxied request into a WireHistory, parsing and reading only what changed since an
 * earlier request of the same conversation. Clients resend the whole conversation each time: the
 * previous request's messages, byte for byte, then the new ones (the newest message's cache
 * breakpoint moves, so the previous newest message is read again). Per client session and wire
 * API the cache keeps the last few reads: their parse, reader state, body bytes and the byte
 * offset of each of their last messages. A request whose bytes before such a message are the same
 * (a byte comparison) resumes there; anything else (another conversation, an edited or rewound
 * history, a parse or read that fails) is read in full. A resumed request's new bytes alone are
 * decoded (in pieces of ~32 KB), parsed and read: its text and kept bytes are the kept read's
 * pieces plus the new ones (`SegmentedText`, never joined here; `SegmentedBytes`, the new bytes
 * copied, so the request's buffer is not kept), and the 1-hour cache is looked for in the new
 * text only.
 * The result always equals a full read. Bounded by entries and characters, least recently used
 * first out.
 */
import { isAscii } from 'node:buffer';
import type { OneHourTtlPrefix } from '../../cache/cacheRules.js';
import { readAnthropicRequest } from './anthropicHistory.js';
import { parseJsonSpans, parseJsonSpansFrom, type JsonNode } from './jsonSpans.js';
import { readOpenAIRequest } from './openaiHistory.js';
import {
  freshReaderState,
  ownNewSites,
  rewindReaderState,
  type ReaderState,
} from './readerState.js';
import { decodePieces } from './decodePieces.js';
import { SegmentedBytes } from './segmentedBytes.js';
import { SegmentedText, type TextSlices } from './segmentedText.js';
import type { ByteAnchors } from './byteAnchors.js';
import type { ReadOutcome, WireApi } from './wireHistory.js';
import {
  arrayKey,
  keptRead,
  verifiedCheckpoint,
  type BodyInput,
  type KeptRead,
  type ReadKey,
} from './keptRead.js';

export type ReadRequestInput = {
  readonly api: WireApi;
  /** The client's session header, when it sends one. */
  readonly sessionId: string | undefined;
} & (
  | {
      readonly text: string;
      /** The bytes `text` was decoded from (absent: encoded from `text`). */
      readonly body?: Buffer;
    }
  | {
      /** Valid UTF-8 (decoded here, only the part a kept read does not already hold). */
      readonly body: Buffer;
      readonly text?: undefined;
    }
);

export interface RequestReadCacheOptions {
  /** Reads kept in all (default 64). */
  readonly maxEntries?: number;
  /**
   * Characters of the requests kept, in all (default 32 Mi: about 200 MB of heap, plus the bodies'
   * bytes, which the prefix comparison needs).
   */
  readonly maxChars?: number;
}

/** The request's parse (for members outside the conversation, such as `model`) and its read. */
export interface RequestRead {
  /**
   * The request's text (the input's, or its body decoded), joined on first use: a copy of the
   * whole text when the read resumed; `segments` reads it without one.
   */
  readonly text: string;
  /** The same text as the pieces it was decoded in. */
  readonly segments: SegmentedText;
  readonly root: JsonNode;
  readonly outcome: ReadOutcome;
  /**
   * The bytes before the request's newest message and their sha1 (base64), when the conversation
   * array was found: hashed only from the previous request's checkpoint on.
   */
  readonly newestMessagePrefix?: {
    readonly chars: number;
    readonly bytes: number;
    readonly digest: string;
  };
  /**
   * Names this read while the cache keeps it (absent when it is not kept): state derived from a
   * read (`resumedFrom.key` of a later one) can be kept beside it, and goes when the read does.
   */
  readonly key?: ReadKey;
  /** The kept read this one resumed from, and how many leading messages are its own, unchanged. */
  readonly resumedFrom?: { readonly key: ReadKey; readonly messages: number };
  /** Anthropic: whether the text before the kept read's last checkpoint asks for the 1-hour cache. */
  readonly oneHourTtlPrefix?: OneHourTtlPrefix;
  /** When the body is not ASCII (else characters are bytes) and the read is kept. */
  readonly byteAnchors?: ByteAnchors;
}

/** How the last read went: for tests and the benchmark. */
export type ReadPath = 'full' | 'resumed';

/** Reads kept per session key (side requests of one session have their own system prompt). */
const PER_KEY = 4;

function readWith(api: WireApi, text: TextSlices, root: JsonNode, state: ReaderState): ReadOutcome {
  return api === 'anthropic'
    ? readAnthropicRequest(text, root, state)
    : readOpenAIRequest(text, root, api, state);
}

export class RequestReadCache {
  private readonly entries = new Map<string, KeptRead[]>();
  private readonly maxEntries: number;
  private readonly maxChars: number;
  /** How the last call to `read` went. */
  lastPath: ReadPath | undefined;

  constructor(options: RequestReadCacheOptions = {}) {
    this.maxEntries = options.maxEntries ?? 64;
    this.maxChars = options.maxChars ?? 32 * 2 ** 20;
  }

  /**
   * Reads kept, their characters, the body bytes held (the memory their bodies are views of, each
   * counted once) and the characters of ASCII texts (decoded as Latin-1: Node keeps a large one
   * outside the JS heap, one byte a character), in all.
   */
  get size(): {
    readonly entries: number;
    readonly chars: number;
    readonly bytes: number;
    readonly asciiChars: number;
  } {
    let entries = 0;
    let chars = 0;
    let asciiChars = 0;
    for (const list of this.entries.values()) {
      entries += list.length;
      for (const entry of list) {
        chars += entry.chars;
        if (entry.body.length === entry.chars) asciiChars += entry.chars;
      }
    }
    const bodies = [...this.entries.values()].flat().map((entry) => entry.body);
    return { entries, chars, bytes: SegmentedBytes.heldBytes(bodies), asciiChars };
  }

  /** Parses and reads the request. Throws JsonSpanError when the text is not JSON. */
  read(request: ReadRequestInput): RequestRead {
    const body = request.body ?? Buffer.from(request.text ?? '', 'utf8');
    const input: BodyInput = { api: request.api, body, text: request.text };
    const key = `${input.api}\u0000${request.sessionId ?? ''}`;
    const list = this.entries.get(key) ?? [];
    for (const [position, entry] of list.entries()) {
      let outcome: ReturnType<typeof this.resume>;
      try {
        outcome = this.resume(input, entry);
      } catch (error) {
        // Resuming rewinds the entry's reader state in place: a failed read leaves it unusable.
        list.splice(position, 1);
        throw error;
      }
      if (outcome === undefined) continue;
      list.splice(position, 1);
      return this.finish(key, list, outcome);
    }
    this.lastPath = 'full';
    const whole = input.text ?? decode(input.body);
    const text = SegmentedText.of(whole);
    const root = parseJsonSpans(whole);
    const state = freshReaderState();
    const outcome = readWith(input.api, text, root, state);
    const full = { ...input, text, kept: SegmentedBytes.of(input.body) };
    return this.finish(key, list, { text, root, outcome, kept: keptRead(full, root, state, []) });
  }

  private resume(
    input: BodyInput,
    entry: KeptRead,
  ): (ReadResult & { from: KeptRead; messages: number }) | undefined {
    const point = verifiedCheckpoint(input, entry);
    if (point === undefined) return undefined;
    const rest =
      input.text === undefined
        ? decodePieces(input.body.subarray(point.bytes))
        : [input.text.slice(point.offset)];
    const text = entry.text.withTail(point.offset, rest);
    const before = entry.root.values.indexOf(entry.array);
    let root: JsonNode;
    try {
      root = parseJsonSpansFrom(rest, {
        rootStart: entry.root.start,
        keysBefore: entry.root.keys.slice(0, before),
        valuesBefore: entry.root.values.slice(0, before),
        key: arrayKey(input.api),
        arrayStart: entry.array.start,
        items: entry.array.items,
        count: point.index,
        at: point.offset,
      });
    } catch {
      return undefined;
    }
    this.lastPath = 'resumed';
    const state = rewindReaderState(entry.state, point.index);
    const outcome = readWith(input.api, text, root, state);
    if (outcome.kind === 'history') ownNewSites(state, point.index);
    const earlier = entry.checkpoints.filter((kept) => kept.offset < point.offset);
    const body = entry.body.withTail(point.bytes, input.body.subarray(point.bytes));
    const kept = keptRead({ ...input, text, kept: body }, root, state, [...earlier, point], {
      anchors: entry.anchors,
      messages: point.index,
    });
    return { text, root, outcome, kept, from: entry, messages: point.index };
  }

  private finish(
    key: string,
    list: KeptRead[],
    result: ReadResult & { from?: KeptRead; messages?: number },
  ): RequestRead {
    if (result.outcome.kind === 'history' && result.kept !== undefined) list.unshift(result.kept);
    list.splice(PER_KEY);
    this.entries.delete(key);
    if (list.length > 0) this.entries.set(key, list);
    this.evict();
    const kept = result.outcome.kind === 'history' ? result.kept : undefined;
    const segments = result.text;
    return {
      get text() {
        return segments.toString();
      },
      segments,
      root: result.root,
      outcome: result.outcome,
      ...(kept === undefined ? {} : { key: kept.key }),
      ...(result.from === undefined || result.messages === undefined
        ? {}
        : { resumedFrom: { key: result.from.key, messages: result.messages } }),
      ...(kept?.anchors === undefined ? {} : { byteAnchors: kept.anchors }),
      ...(result.kept === undefined ? {} : checkpointFacts(result.kept)),
    };
  }

  private evict(): void {
    let { entries, chars } = this.size;
    while (entries > this.maxEntries || chars > this.maxChars) {
      const [oldestKey, oldest] = this.entries.entries().next().value ?? [];
      if (oldestKey === undefined || oldest === undefined) return;
      const dropped = oldest.pop();
      if (oldest.length === 0) this.entries.delete(oldestKey);
      entries--;
      chars -= dropped?.chars ?? 0;
    }
  }
}

/** What a read returns before `finish`: its text as pieces, and the entry to keep. */
type ReadResult = Omit<RequestRead, 'text' | 'segments'> & {
  readonly text: SegmentedText;
  readonly kept: KeptRead | undefined;
};

/**
 * Bytes of the body as text. ASCII: decoded as Latin-1 (Node keeps a large one outside the JS
 * heap: no heap copy, nothing for the collector to move). A resumed read decodes only the bytes
 * from its checkpoint on (a message start, so a character boundary), in pieces (`decodePieces`).
 */
function decode(bytes: Buffer): string {
  return isAscii(bytes) ? bytes.toString('latin1') : bytes.toString('utf8');
}

/** What the entry's newest checkpoint tells of the text before it. */
function checkpointFacts(
  entry: KeptRead,
): Pick<RequestRead, 'oneHourTtlPrefix' | 'newestMessagePrefix'> {
  const newest = entry.checkpoints.at(-1);
  if (newest === undefined) return {};
  return {
    ...(newest.oneHourTtl === undefined
      ? {}
      : { oneHourTtlPrefix: { chars: newest.offset, oneHour: newest.oneHourTtl } }),
    ...(newest.index === entry.array.items.length - 1
      ? {
          newestMessagePrefix: {
            chars: newest.offset,
            bytes: newest.bytes,
            digest: newest.hash.copy().digest('base64'),
          },
        }
      : {}),
  };
}
