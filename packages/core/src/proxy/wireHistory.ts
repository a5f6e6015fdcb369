/**
 * What a request-side reader (one per wire API) hands the density step: the conversation in the
 * content model (for decisions only; it is never serialized back) and, per tool call id, where the
 * tool result's content sits in the original request text (for splicing).
 */
import type { IContent } from '../services/history/IContent.js';

export type WireApi = 'anthropic' | 'openai-chat' | 'openai-responses';

export interface ResultSite {
  readonly callId: string;
  /** Index of the wire message/item holding the result. */
  readonly messageIndex: number;
  /** Span of the content value in the request text. */
  readonly start: number;
  readonly end: number;
  /**
   * How to write the pointer: as a JSON string, or (Anthropic content arrays carrying a
   * cache_control breakpoint) as a one-block array that keeps the breakpoint's raw text.
   */
  readonly cacheControlRaw?: string;
}

export interface WireHistory {
  readonly api: WireApi;
  readonly history: readonly IContent[];
  /** Results whose content may be replaced (text only), by call id. */
  readonly sites: ReadonlyMap<string, ResultSite>;
  /** Number of wire messages/items (the newest one is never cached yet). */
  readonly messageCount: number;
  /** Span of each wire message/item in the request text (for prefix-stability hashes). */
  readonly messageSpans: readonly { readonly start: number; readonly end: number }[];
  /** Text that identifies the conversation when the client sends no session header. */
  readonly identity: string;
}

export type ReadOutcome =
  | { readonly kind: 'history'; readonly wire: WireHistory }
  | { readonly kind: 'unsupported'; readonly reason: string };

/**
 * What identifies a conversation without a session header: the system text and the first entry's
 * text (not its raw bytes: clients move cache breakpoints on and off it between requests).
 */
export function conversationIdentity(system: string, first: IContent | undefined): string {
  const text = (first?.blocks ?? []).map((block) => (block.type === 'text' ? block.text : ''));
  return `${system}\u0000${text.join('\u0000')}`;
}

export function unsupported(reason: string): ReadOutcome {
  return { kind: 'unsupported', reason };
}
