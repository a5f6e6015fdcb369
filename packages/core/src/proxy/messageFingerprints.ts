/**
 * One fingerprint per message of a forwarded request, to tell whether the messages the previous
 * request also had went out byte-identical (prefix stability). A message's fingerprint is the sha1
 * of its original text plus the pointers written into it (offset, recall id, breakpoint): the
 * forwarded bytes are a function of those. The original's sha1 is kept per decision-history entry:
 * the read cache hands a request the previous request's entries for the messages whose bytes it
 * verified, so only new messages are hashed.
 */
import { createHash } from 'node:crypto';
import type { IContent } from '../services/history/IContent.js';
import type { PointerSite } from './proxyPointer.js';
import type { WireHistory } from './wireHistory.js';

export class MessageFingerprints {
  /** sha1 (base64) of the original text of the message each entry was read from. */
  private readonly digests = new WeakMap<IContent, string>();
  /** Characters hashed so far (to check that only new messages are). */
  hashedChars = 0;

  /** The fingerprint of each message of `wire` as sent with pointers at `sites`. */
  of(text: string, wire: WireHistory, sites: readonly PointerSite[]): string[] {
    const fingerprints = wire.messageSpans.map((span, index) =>
      this.digest(text, span, wire.history[index]),
    );
    // In text order: the same pointers give the same fingerprint whichever request decided them.
    for (const site of [...sites].sort((a, b) => a.start - b.start)) {
      const start = wire.messageSpans[site.messageIndex]?.start ?? 0;
      fingerprints[site.messageIndex] +=
        `\u0000${site.start - start}:${site.end - start}:${site.recallId}:${site.cacheControlRaw ?? ''}`;
    }
    return fingerprints;
  }

  private digest(
    text: string,
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
