/**
 * Reads a proxied request into a WireHistory, parsing and reading only what changed since an
 * earlier request of the same conversation. Clients resend the whole conversation each time: the
 * previous request's messages, byte for byte, then the new ones (the newest message's cache
 * breakpoint moves, so the previous newest message is read again). Per client session and wire
 * API the cache keeps the last few reads: their parse, their reader state and, at the start of
 * each of their last messages, a hash of the text before it. A request whose text before such a
 * message hashes the same resumes there; anything else (another conversation, an edited or
 * rewound history, a parse or read that fails) is read in full. The result always equals a full
 * read of the request. Bounded by entry count and total characters, least recently used first out.
 */
import { createHash, type Hash } from 'node:crypto';
import { readAnthropicRequest } from './anthropicHistory.js';
import {
  member,
  parseJsonSpans,
  parseJsonSpansFrom,
  type JsonArrayNode,
  type JsonNode,
  type JsonObjectNode,
} from './jsonSpans.js';
import { readOpenAIRequest } from './openaiHistory.js';
import { freshReaderState, rewindReaderState, type ReaderState } from './readerState.js';
import type { ReadOutcome, ResultSite, WireApi } from './wireHistory.js';

export interface ReadRequestInput {
  readonly api: WireApi;
  readonly text: string;
  /** The client's session header, when it sends one. */
  readonly sessionId: string | undefined;
}

export interface RequestReadCacheOptions {
  /** Reads kept in all (default 64). */
  readonly maxEntries?: number;
  /** Characters of the requests kept, in all (default 32 Mi: about 200 MB of heap). */
  readonly maxChars?: number;
}

/** The request's parse (for members outside the conversation, such as `model`) and its read. */
export interface RequestRead {
  readonly root: JsonNode;
  readonly outcome: ReadOutcome;
}

/** How the last read went: for tests and the benchmark. */
export type ReadPath = 'full' | 'resumed';

interface Checkpoint {
  /** Index of the message that starts at `offset`. */
  readonly index: number;
  readonly offset: number;
  /** sha1 of the text before `offset`. */
  readonly digest: string;
  /** The characters just before `offset`: a cheap first check before hashing. */
  readonly probe: string;
}

interface Entry {
  readonly root: JsonObjectNode;
  readonly array: JsonArrayNode;
  readonly state: ReaderState;
  /** In ascending offset order. */
  readonly checkpoints: readonly Checkpoint[];
  readonly chars: number;
}

/** Messages from the end that get a checkpoint (the previous newest message and two before it). */
const CHECKPOINTS = 3;
/** Reads kept per session key (side requests of one session have their own system prompt). */
const PER_KEY = 4;
const PROBE_CHARS = 64;

const arrayKey = (api: WireApi): string => (api === 'openai-responses' ? 'input' : 'messages');

function readWith(api: WireApi, text: string, root: JsonNode, state: ReaderState): ReadOutcome {
  return api === 'anthropic'
    ? readAnthropicRequest(text, root, state)
    : readOpenAIRequest(text, root, api, state);
}

/** A string that does not point into the text it was sliced from. */
const own = (value: string): string => Buffer.from(value, 'utf8').toString('utf8');

export class RequestReadCache {
  private readonly entries = new Map<string, Entry[]>();
  private readonly maxEntries: number;
  private readonly maxChars: number;
  /** How the last call to `read` went. */
  lastPath: ReadPath | undefined;

  constructor(options: RequestReadCacheOptions = {}) {
    this.maxEntries = options.maxEntries ?? 64;
    this.maxChars = options.maxChars ?? 32 * 2 ** 20;
  }

  /** Reads kept and their characters in all. */
  get size(): { readonly entries: number; readonly chars: number } {
    let entries = 0;
    let chars = 0;
    for (const list of this.entries.values()) {
      entries += list.length;
      for (const entry of list) chars += entry.chars;
    }
    return { entries, chars };
  }

  /** Parses and reads the request. Throws JsonSpanError when the text is not JSON. */
  read(input: ReadRequestInput): RequestRead {
    const key = `${input.api}\u0000${input.sessionId ?? ''}`;
    const list = this.entries.get(key) ?? [];
    for (const [position, entry] of list.entries()) {
      const outcome = this.resume(input, entry);
      if (outcome === undefined) continue;
      list.splice(position, 1);
      return this.finish(key, list, outcome);
    }
    this.lastPath = 'full';
    const root = parseJsonSpans(input.text);
    const state = freshReaderState();
    const outcome = readWith(input.api, input.text, root, state);
    const hash = createHash('sha1');
    return this.finish(key, list, { root, outcome, kept: keep(input, root, state, hash, []) });
  }

  private resume(
    input: ReadRequestInput,
    entry: Entry,
  ): (RequestRead & { kept: Entry | undefined }) | undefined {
    const checkpoint = verifiedCheckpoint(input.text, entry);
    if (checkpoint === undefined) return undefined;
    const { point, hash } = checkpoint;
    const entriesBefore = new Map<string, JsonNode>();
    for (const [name, node] of entry.root.entries) {
      if (node === entry.array) break;
      entriesBefore.set(name, node);
    }
    let root: JsonNode;
    try {
      root = parseJsonSpansFrom(input.text, {
        rootStart: entry.root.start,
        entriesBefore,
        key: arrayKey(input.api),
        arrayStart: entry.array.start,
        items: entry.array.items.slice(0, point.index),
        at: point.offset,
      });
    } catch {
      return undefined;
    }
    this.lastPath = 'resumed';
    const state = rewindReaderState(entry.state, point.index);
    const outcome = readWith(input.api, input.text, root, state);
    if (outcome.kind === 'history') ownSites(state.sites, point.index);
    const earlier = entry.checkpoints.filter((kept) => kept.offset < point.offset);
    return { root, outcome, kept: keep(input, root, state, hash, [...earlier, point]) };
  }

  private finish(
    key: string,
    list: Entry[],
    result: RequestRead & { kept: Entry | undefined },
  ): RequestRead {
    if (result.outcome.kind === 'history' && result.kept !== undefined) list.unshift(result.kept);
    list.splice(PER_KEY);
    this.entries.delete(key);
    if (list.length > 0) this.entries.set(key, list);
    this.evict();
    return { root: result.root, outcome: result.outcome };
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

/**
 * The latest checkpoint of `entry` at which `text` starts with the same characters, with the
 * running hash of the text up to it (to continue for the next checkpoints).
 */
function verifiedCheckpoint(
  text: string,
  entry: Entry,
): { point: Checkpoint; hash: Hash } | undefined {
  for (let i = entry.checkpoints.length - 1; i >= 0; i--) {
    const point = entry.checkpoints[i] as Checkpoint;
    if (text.length <= point.offset) continue;
    if (!text.startsWith(point.probe, point.offset - point.probe.length)) continue;
    const hash = createHash('sha1').update(text.slice(0, point.offset));
    if (hash.copy().digest('base64') === point.digest) return { point, hash };
  }
  return undefined;
}

/** The entry to keep after a read; `hash` has consumed the text up to the last `known` checkpoint. */
function keep(
  input: ReadRequestInput,
  root: JsonNode,
  state: ReaderState,
  hash: Hash,
  known: readonly Checkpoint[],
): Entry | undefined {
  const array = member(root, arrayKey(input.api));
  if (root.kind !== 'object' || array?.kind !== 'array') return undefined;
  const { items } = array;
  let hashed = known.at(-1)?.offset ?? 0;
  const checkpoints = known.filter((point) => point.index >= items.length - CHECKPOINTS);
  for (let index = Math.max(1, items.length - CHECKPOINTS); index < items.length; index++) {
    const offset = (items[index] as JsonNode).start;
    if (offset <= hashed) continue;
    hash.update(input.text.slice(hashed, offset));
    hashed = offset;
    const probe = own(input.text.slice(Math.max(0, offset - PROBE_CHARS), offset));
    checkpoints.push({ index, offset, digest: hash.copy().digest('base64'), probe });
  }
  return { root, array, state, checkpoints, chars: input.text.length };
}

/** Sites read from this request point into its text: copy their strings so it can be freed. */
function ownSites(sites: ResultSite[], from: number): void {
  for (let i = sites.length - 1; i >= 0; i--) {
    const site = sites[i] as ResultSite;
    if (site.messageIndex < from) break;
    if (site.cacheControlRaw !== undefined) {
      sites[i] = { ...site, cacheControlRaw: own(site.cacheControlRaw) };
    }
  }
}
