/**
 * Where replicas of the proxy keep each conversation's state between requests, so that whichever
 * replica serves a request decides from the state the previous request left and sends the same
 * bytes. The embedded default is the process itself (no shared store). A store that does not
 * answer in time is `unavailable`: the request then goes out unchanged (fail open).
 */
import type { ConversationStore } from '../../proxy/decide/conversationStore.js';
import type { ConversationMeter } from '../../proxy/meter/proxyStats.js';
import type { RecallArchive, RecallEntry } from '../../recall/RecallArchive.js';

/** Where the meter keeps each conversation's pricing state (`ProxyStats`). */
export interface ConversationMeters {
  meterOf(conversationId: string): ConversationMeter | undefined;
  restoreMeter(conversationId: string, meter: ConversationMeter): void;
}

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

/** A request's originals for recall, kept with its state's save (in its round trip when it can). */
export interface OriginalsToKeep {
  readonly archive: Pick<RecallArchive, 'put'>;
  readonly conversationId: string;
  readonly entries: readonly RecallEntry[];
}

/**
 * A load of `id`'s state sent before the request that names it was read (`prefetch`), so its
 * round trip overlaps receiving and reading the body; `load` for the same id finishes it.
 */
export interface EarlyLoad {
  readonly id: string;
}

export interface SharedConversations {
  /**
   * Brings `store`'s state (and `meters`' for it) for `id` up to the shared copy. `early`: a load
   * of a guessed conversation sent before the request was read; used when it is `id`'s and the
   * local copy did not change since, sent again otherwise.
   */
  load(
    id: string,
    store: ConversationStore,
    meters?: ConversationMeters,
    early?: EarlyLoad,
  ): Promise<LoadOutcome>;
  /** Sends `id`'s load now, for a request not yet read (one round trip, whether used or not). */
  prefetch(id: string, store: ConversationStore): EarlyLoad;
  /**
   * Writes the state for `id` unless another replica wrote since it was loaded. `originals` the
   * store `carries` are kept in the same round trip, conflict or not (none when it is unavailable);
   * others are not its to keep.
   */
  save(
    id: string,
    store: ConversationStore,
    meters?: ConversationMeters,
    originals?: OriginalsToKeep,
  ): Promise<SaveOutcome>;
  /** Whether `save` keeps these originals itself (their archive is on the same store). */
  carries(originals: OriginalsToKeep): boolean;
  /** Round trips to the store so far (each one request/reply on the wire, pipelined or not). */
  readonly roundTrips: number;
  close(): Promise<void>;
}
