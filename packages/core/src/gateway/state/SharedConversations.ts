/**
 * Where replicas of the proxy keep each conversation's state between requests, so that whichever
 * replica serves a request decides from the state the previous request left and sends the same
 * bytes. The embedded default is the process itself (no shared store). A store that does not
 * answer in time is `unavailable`: the request then goes out unchanged (fail open).
 */
import type { ConversationStore } from '../../proxy/conversationStore.js';

/**
 * `current`: the local copy was the shared one; `restored`: the shared copy replaced it;
 * `new`: the store has none (a new conversation, or one expired); `unavailable`: no answer in time.
 */
export type LoadOutcome = 'current' | 'restored' | 'new' | 'unavailable';

/**
 * `saved`: written; `conflict`: another replica wrote since this one loaded (load again and redo
 * the request's decisions); `unavailable`: no answer in time (the store keeps its older copy).
 */
export type SaveOutcome = 'saved' | 'conflict' | 'unavailable';

export interface SharedConversations {
  /** Brings `store`'s state for `id` up to the shared copy. */
  load(id: string, store: ConversationStore): Promise<LoadOutcome>;
  /** Writes `store`'s state for `id` unless another replica wrote since it was loaded. */
  save(id: string, store: ConversationStore): Promise<SaveOutcome>;
  /** Round trips to the store so far (each one request/reply on the wire, pipelined or not). */
  readonly roundTrips: number;
  close(): Promise<void>;
}
