/**
 * What a request-side reader (one per wire API) hands the density step: the conversation in the
 * content model (for decisions only; it is never serialized back) and, per tool result position,
 * where the result's content sits in the original request text (for splicing). Positions, not call
 * ids, name a result: clients may reuse one id for every call.
 */
import type { IContent } from '../../services/history/IContent.js';

export type WireApi = 'anthropic' | 'openai-chat' | 'openai-responses';

export interface ResultSite {
  readonly callId: string;
  /** Index of the wire message/item holding the result (also its index in `history`). */
  readonly messageIndex: number;
  /** Index in `history[messageIndex].blocks` of the result's (first) tool_response block. */
  readonly blockIndex: number;
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
  /** Results whose content may be replaced (text only), in request order. */
  readonly sites: readonly ResultSite[];
  /** Number of wire messages/items (the newest one is never cached yet). */
  readonly messageCount: number;
  /** Span of each wire message/item in the request text (for prefix-stability hashes). */
  readonly messageSpans: readonly { readonly start: number; readonly end: number }[];
  /** Text that identifies the conversation when the client sends no session header. */
  readonly identity: string;
}

export type ReadOutcome =
  | { readonly kind: 'history'; readonly wire: WireHistory }
  | {
      readonly kind: 'unsupported';
      readonly reason: string;
      /** The conversation's identity, when the reader got far enough to know it. */
      readonly identity?: string;
    };

/** Whether `entry` is an instruction message of the wire (system or developer), not a turn. */
export function isInstruction(entry: IContent): boolean {
  return entry.metadata?.wireRole !== undefined;
}

/**
 * What identifies a conversation without a session header: the system text, the instruction
 * messages before the first turn and the first turn's text (not raw bytes: clients move cache
 * breakpoints on and off it between requests). Two sessions of one project share their system
 * prompt; their first turns tell them apart.
 */
export function conversationIdentity(system: string, history: readonly IContent[]): string {
  const parts = [system];
  for (const entry of history) {
    for (const block of entry.blocks) if (block.type === 'text') parts.push(block.text);
    if (!isInstruction(entry)) break;
  }
  return parts.join('\u0000');
}

export function unsupported(reason: string, identity?: string): ReadOutcome {
  return identity === undefined
    ? { kind: 'unsupported', reason }
    : { kind: 'unsupported', reason, identity };
}
