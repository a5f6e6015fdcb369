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
    const byMessage = new Map<number, PointerSite[]>();
    for (const site of sites) {
      const list = byMessage.get(site.messageIndex);
      if (list === undefined) byMessage.set(site.messageIndex, [site]);
      else list.push(site);
    }
    return wire.messageSpans.map((span, index) => {
      const original = this.digest(text, span, wire.history[index]);
      const inside = byMessage.get(index);
      if (inside === undefined) return original;
      const pointers = inside
        .map((site) => `${site.start - span.start}:${site.end - span.start}:${site.recallId}`)
        .concat(inside.map((site) => site.cacheControlRaw ?? ''));
      return `${original}\u0000${pointers.join('\u0000')}`;
    });
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
