/**
 * The hash a compaction keeps of the messages it replaces, chained message by message:
 * `h(start) = ''`, `h(i + 1) = sha1(h(i), raw_i)`. A replica that confirmed a compaction on an
 * earlier read knows `h` up to that compaction's cut, so checking a longer compaction another
 * replica made reads only the messages past it.
 */
import { createHash } from 'node:crypto';

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
