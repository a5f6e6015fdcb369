/**
 * The hash a compaction keeps of the messages it replaces, chained message by message:
 * `h(start) = ''`, `h(i + 1) = sha1(h(i), raw_i)`. A replica that confirmed a compaction on an
 * earlier read knows `h` up to that compaction's cut, so checking a longer compaction another
 * replica made reads only the messages past it. Beside it, a canonical hash of the same messages
 * blind to cache breakpoints (the check when a breakpoint moved and the raw bytes differ).
 */
import { createHash } from 'node:crypto';
import type { TextSlices } from '../../utils/TextSlices.js';

/** A region's hash up to `cut` (the message after its last), from its `start`. */
export interface RegionMark {
  readonly start: number;
  readonly cut: number;
  readonly hash: string;
}

/** What a request's read says about its standing compaction. */
export interface VerifiedRegion {
  /** Leading messages byte for byte those of the read it resumed from (0: none known). */
  readonly messages: number;
  /** That read's confirmed compaction, when its cut lies within `messages`: its region's hash. */
  readonly mark?: RegionMark;
}

/** `h` carried from `from` (`''`: the region's start) over `raws`, one message each. */
export function chainedRegionHash(from: string, raws: Iterable<string>): string {
  let hash = from;
  for (const raw of raws) hash = createHash('sha1').update(hash).update(raw).digest('base64');
  return hash;
}

/** Where to start hashing a region `[start, cut)`: a known mark inside it, else its start. */
export function regionStart(
  known: RegionMark | undefined,
  start: number,
  cut: number,
): { readonly at: number; readonly hash: string } {
  return known?.start === start && known.cut <= cut
    ? { at: known.cut, hash: known.hash }
    : { at: start, hash: '' };
}

function withoutCacheControl(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutCacheControl);
  if (typeof value !== 'object' || value === null) return value;
  const entries = Object.entries(value).filter(([key]) => key !== 'cache_control');
  return Object.fromEntries(entries.map(([key, inner]) => [key, withoutCacheControl(inner)]));
}

/** A message's hash, blind to the cache breakpoints clients move between requests. */
function messageHash(raw: string): string {
  const canonical = JSON.stringify(withoutCacheControl(JSON.parse(raw)));
  return createHash('sha1').update(canonical).digest('base64');
}

/**
 * Each message's canonical hash, kept with its span: a span a resumed read hands on is a verified
 * message's, byte for byte the same, so a later compaction of a region that holds it does not
 * parse and hash it again.
 */
const MESSAGE_HASHES = new WeakMap<object, string>();

/** One hash of the hashes of messages `[from, to)` of `spans` in `text`, breakpoints left out. */
export function canonicalRegionHash(
  spans: readonly { readonly start: number; readonly end: number }[],
  text: TextSlices,
  from: number,
  to: number,
): string {
  const hashes = spans.slice(from, to).map((span) => {
    let hash = MESSAGE_HASHES.get(span);
    if (hash === undefined) {
      hash = messageHash(text.slice(span.start, span.end));
      MESSAGE_HASHES.set(span, hash);
    }
    return hash;
  });
  return createHash('sha1').update(hashes.join('\n')).digest('base64');
}
