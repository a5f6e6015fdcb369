/**
 * One fingerprint per message of a forwarded request, to tell whether the messages the previous
 * request also had went out byte-identical (prefix stability). A message's fingerprint is the sha1
 * of its original text plus the pointers written into it (offset, recall id, breakpoint): the
 * forwarded bytes are a function of those. The original's sha1 is kept per decision-history entry:
 * the read cache hands a request the previous request's entries for the messages whose bytes it
 * verified, so only new messages are hashed.
 */
import { createHash } from 'node:crypto';
import type { IContent } from '../../services/history/IContent.js';
import { inOrder, type PointerSite } from '../splice/spliceEdits.js';
import type { TextSlices } from '../wire/segmentedText.js';
import type { WireHistory } from '../wire/wireHistory.js';

/** The previous request's fingerprints, and how many of its first messages this one has. */
export interface PreviousFingerprints {
  readonly fingerprints: readonly string[];
  /** Its pointer sites, in text order. */
  readonly sites: readonly PointerSite[];
  /** Leading messages byte-identical in both requests. */
  readonly sameMessages: number;
}

const byStart = (a: PointerSite, b: PointerSite): number => a.start - b.start;

/** `sites` by start: themselves when they already are (the density step passes them so). */
const inTextOrder = (sites: readonly PointerSite[]): readonly PointerSite[] =>
  inOrder(sites) ? sites : [...sites].sort(byStart);

/**
 * Whether two sites write the same pointer. Most are the very same object (the read cache hands a
 * request the previous one's result sites, and pointers and replies are kept per result site),
 * which is checked first: the sites have several shapes, and reading their fields for each of
 * ~1,200 sites per request cost ~0.4 ms at 1M.
 */
const sameSite = (a: PointerSite, b: PointerSite): boolean =>
  a === b ||
  (a.start === b.start &&
    a.end === b.end &&
    a.recallId === b.recallId &&
    a.cacheControlRaw === b.cacheControlRaw);

/** The site at `index` of `sites` when it lies in a message before `limit`. */
function siteBefore(
  sites: readonly PointerSite[],
  index: number,
  limit: number,
): PointerSite | undefined {
  const site = sites[index];
  return site !== undefined && site.messageIndex < limit ? site : undefined;
}

/**
 * The messages before `limit` whose pointer sites differ between two site lists in text order
 * (walked side by side by offset: a message whose sites are the same is not named).
 */
function changedMessages(
  before: readonly PointerSite[],
  after: readonly PointerSite[],
  limit: number,
): Set<number> {
  const changed = new Set<number>();
  let i = 0;
  let j = 0;
  for (;;) {
    const a = siteBefore(before, i, limit);
    const b = siteBefore(after, j, limit);
    if (a === undefined && b === undefined) return changed;
    if (a !== undefined && b !== undefined && sameSite(a, b)) {
      i++;
      j++;
    } else if (a !== undefined && (b === undefined || a.start <= b.start)) {
      changed.add(a.messageIndex);
      i++;
    } else if (b !== undefined) {
      changed.add(b.messageIndex);
      j++;
    }
  }
}

export class MessageFingerprints {
  /** sha1 (base64) of the original text of the message each entry was read from. */
  private readonly digests = new WeakMap<IContent, string>();
  /** Characters hashed so far (to check that only new messages are). */
  hashedChars = 0;
  /** Messages fingerprinted so far (the others kept the previous request's fingerprint). */
  fingerprinted = 0;

  /**
   * The fingerprint of each message of `wire` as sent with pointers at `sites`. With `previous`,
   * the messages it shares whose pointers did not change keep its fingerprints (the same strings).
   */
  of(
    text: TextSlices,
    wire: WireHistory,
    sites: readonly PointerSite[],
    previous?: PreviousFingerprints,
  ): string[] {
    const ordered = inTextOrder(sites);
    const same = Math.min(previous?.sameMessages ?? 0, previous?.fingerprints.length ?? 0);
    const changed =
      previous === undefined ? new Set<number>() : changedMessages(previous.sites, ordered, same);
    const fingerprints = previous?.fingerprints.slice(0, same) ?? [];
    const fresh = (index: number) => index >= same || changed.has(index);
    for (const index of changed) {
      fingerprints[index] = this.message(text, wire, index);
    }
    for (let index = same; index < wire.messageSpans.length; index++) {
      fingerprints[index] = this.message(text, wire, index);
    }
    // In text order: the same pointers give the same fingerprint whichever request decided them.
    for (const site of ordered) {
      if (!fresh(site.messageIndex)) continue;
      const start = wire.messageSpans[site.messageIndex]?.start ?? 0;
      fingerprints[site.messageIndex] +=
        `\u0000${site.start - start}:${site.end - start}:${site.recallId}:${site.cacheControlRaw ?? ''}`;
    }
    return fingerprints;
  }

  /** The digest of message `index`'s original text. */
  private message(text: TextSlices, wire: WireHistory, index: number): string {
    this.fingerprinted++;
    const span = wire.messageSpans[index] ?? { start: 0, end: 0 };
    return this.digest(text, span, wire.history[index]);
  }

  private digest(
    text: TextSlices,
    span: { readonly start: number; readonly end: number },
    entry: IContent | undefined,
  ): string {
    const known = entry === undefined ? undefined : this.digests.get(entry);
    if (known !== undefined) return known;
    this.hashedChars += span.end - span.start;
    const digest = createHash('sha1').update(text.slice(span.start, span.end)).digest('base64');
    if (entry !== undefined) this.digests.set(entry, digest);
    return digest;
  }
}
