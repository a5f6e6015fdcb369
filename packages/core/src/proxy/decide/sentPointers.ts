/**
 * Keeps a conversation's pointers on a request the proxy cannot read. The pointers the last fully
 * read request sent are repeated at the same offsets when everything before that request's newest
 * message is byte-identical in this one: the results are then the same results, made stale by the
 * same writes. Otherwise the request goes out unchanged, and the outcome says that the provider's
 * cached prefix is rewritten from the first dropped pointer, and why.
 */
import { createHash } from 'node:crypto';
import type { PointerSite } from '../splice/spliceEdits.js';
import type { TextSlices } from '../wire/segmentedText.js';
import type { WireHistory } from '../wire/wireHistory.js';

/** What the last fully read request sent, enough to repeat its pointers byte-exactly. */
export interface SentPointers {
  /** Characters of that request's text before its newest message. */
  readonly prefixChars: number;
  readonly prefixHash: string;
  /** Pointers it sent in all. */
  readonly pointers: number;
  /** The pointer sites inside the prefix (the ones that can be repeated). */
  readonly sites: readonly PointerSite[];
}

export const POINTERS_DROPPED_REASONS = [
  'body-not-utf8',
  'conversation-unknown',
  'history-changed',
  'newest-message',
] as const;
export type PointersDroppedReason = (typeof POINTERS_DROPPED_REASONS)[number];

/** One line per reason, for the server's log. */
export const POINTERS_DROPPED_TEXT: Readonly<Record<PointersDroppedReason, string>> = {
  'body-not-utf8': 'the body is not valid UTF-8, so no pointer can be written byte-exactly',
  'conversation-unknown':
    'the request was not read far enough to name its conversation; its pointers, if any, are not sent',
  'history-changed':
    'an earlier message differs from the last request the proxy read; its pointers are not sent',
  'newest-message':
    "a pointer sat in the last read request's newest message, which is not compared; it is not sent",
};

/** What happened to the pointers already sent when a request went out without being read. */
export type PassThroughPointers =
  /** No pointer had been sent: the provider's cached prefix is unaffected. */
  | { readonly kind: 'none' }
  /** Every pointer already sent was repeated byte-exactly. */
  | { readonly kind: 'kept'; readonly pointers: number }
  /** Some or all were not repeated: the cached prefix is rewritten from the first one dropped. */
  | {
      readonly kind: 'dropped';
      readonly reason: PointersDroppedReason;
      readonly kept: number;
    };

const digest = (text: string): string => createHash('sha1').update(text).digest('base64');

/**
 * What `repeatSentPointers` needs to know about a request that was read and sent. `prefixHash`,
 * when the reader already has it, is the hash of the text before the newest message.
 */
export function recordSentPointers(
  text: TextSlices,
  wire: WireHistory,
  sent: { readonly sites: readonly PointerSite[]; readonly prefixHash?: string },
): SentPointers {
  const prefixChars = wire.messageSpans.at(-1)?.start ?? 0;
  const { sites } = sent;
  return {
    prefixChars,
    prefixHash: sent.prefixHash ?? digest(text.slice(0, prefixChars)),
    pointers: sites.length,
    sites: sites.filter((site) => site.end <= prefixChars),
  };
}

/** The sites to write into `text` (a request not read) and what that means for the cache. */
export function repeatSentPointers(
  text: string,
  sent: SentPointers | undefined,
): { readonly sites: readonly PointerSite[]; readonly outcome: PassThroughPointers } {
  if (sent === undefined || sent.pointers === 0) return { sites: [], outcome: { kind: 'none' } };
  const unchanged =
    text.length >= sent.prefixChars && digest(text.slice(0, sent.prefixChars)) === sent.prefixHash;
  if (!unchanged) {
    return { sites: [], outcome: { kind: 'dropped', reason: 'history-changed', kept: 0 } };
  }
  if (sent.sites.length < sent.pointers) {
    return {
      sites: sent.sites,
      outcome: { kind: 'dropped', reason: 'newest-message', kept: sent.sites.length },
    };
  }
  return { sites: sent.sites, outcome: { kind: 'kept', pointers: sent.sites.length } };
}
