/**
 * The direct client of each client session, for the live meter (`directClient.ts` decides; this
 * keeps the state): the history it would still carry, and the session's latest pass-through
 * request (its cache is the session's, whatever conversation a compaction started). Bounded like
 * the stats' conversations.
 */
import type { CacheRules } from '../../cache/cacheRules.js';
import {
  afterAnswered,
  beforePriced,
  clientTokensOf,
  compactionHeldTokens,
  directCompactionCost,
  DIRECT_START,
  type DirectClientState,
} from './directClient.js';
import type { PassThroughState } from './passThroughCost.js';
import { forgetOldest, setNewest } from '../../utils/newestFirst.js';

/** The client session of a conversation: `session:<header>` when it sent one, else itself. */
export function sessionOf(conversationId: string | undefined): string {
  const id = conversationId ?? '(none)';
  return id.startsWith('session:') ? id.slice(0, id.lastIndexOf(':')) : id;
}

/** What the direct client does before a forwarded request is priced. */
export interface DirectRequest {
  readonly session: string;
  /** Prompt tokens of the request as the direct client would send it. */
  readonly promptTokens: number;
  /** Of those, history the client itself no longer holds. */
  readonly carriedTokens: number;
  /** The previous pass-through request its cache reads from (undefined: the conversation's own). */
  readonly previous: PassThroughState | undefined;
  /** Its own compaction call before this request, priced (0: none). */
  readonly compactionCost: number;
  readonly compacted: boolean;
}

/** A session's direct client as plain data. */
export interface DirectSessionState {
  readonly carried?: DirectClientState;
  readonly latest?: PassThroughState;
}

export class DirectClients {
  private readonly carried = new Map<string, DirectClientState>();
  private readonly latest = new Map<string, PassThroughState>();

  constructor(private readonly max: number) {}

  /**
   * A client compaction Dense answered: the model call the direct client would have made (its
   * cost), or undefined when Dense induced it (then the history is carried) or nothing was held.
   */
  answered(input: {
    readonly conversationId: string | undefined;
    readonly induced: boolean;
    readonly rules: CacheRules;
    readonly at: number;
    /** Bytes of the compaction request's body. */
    readonly clientBytes?: number;
    /** Bytes the compaction took out of the client's history (`replacedBytesOf`). */
    readonly replacedBytes?: number;
  }): number | undefined {
    const session = sessionOf(input.conversationId);
    const previous = this.latest.get(session);
    const heldTokens = compactionHeldTokens(previous, input.clientBytes);
    const replacedTokens = clientTokensOf(previous, input.replacedBytes);
    const next = afterAnswered(this.stateOf(session), {
      induced: input.induced,
      heldTokens,
      ...(replacedTokens === undefined ? {} : { replacedTokens }),
    });
    this.setState(session, next.state);
    if (!next.chargeCompaction || heldTokens === 0) return undefined;
    return directCompactionCost({ rules: input.rules, heldTokens, at: input.at, previous });
  }

  /** Before pricing a forwarded request whose client holds `clientTokens`. */
  before(input: {
    readonly conversationId: string | undefined;
    readonly clientTokens: number;
    readonly threshold: number | undefined;
    readonly rules: CacheRules;
    readonly at: number;
    /** The conversation's own previous pass-through request. */
    readonly conversationPrevious: PassThroughState | undefined;
  }): DirectRequest {
    const session = sessionOf(input.conversationId);
    const held = beforePriced(this.stateOf(session), input);
    this.setState(session, held.state);
    const sessionPrevious = this.latest.get(session);
    const compactionCost =
      held.compactedTokens === undefined
        ? 0
        : directCompactionCost({
            rules: input.rules,
            heldTokens: held.compactedTokens,
            at: input.at,
            previous: sessionPrevious,
          });
    const carriedTokens = held.promptTokens - input.clientTokens;
    return {
      session,
      promptTokens: held.promptTokens,
      carriedTokens,
      // While it carries history the direct client is still in the session's one conversation.
      previous: carriedTokens > 0 ? sessionPrevious : input.conversationPrevious,
      compactionCost,
      compacted: held.compactedTokens !== undefined,
    };
  }

  /** The request as priced: the session's latest. */
  priced(session: string, state: PassThroughState): void {
    setNewest(this.latest, session, state, this.max);
  }

  /** The session's state, as plain data (a shared store keeps it between requests). */
  sessionState(session: string): DirectSessionState {
    const carried = this.carried.get(session);
    const latest = this.latest.get(session);
    return {
      ...(carried === undefined ? {} : { carried }),
      ...(latest === undefined ? {} : { latest }),
    };
  }

  restoreSession(session: string, state: DirectSessionState): void {
    this.setState(session, state.carried ?? DIRECT_START);
    if (state.latest === undefined) this.latest.delete(session);
    else this.priced(session, state.latest);
  }

  private stateOf(session: string): DirectClientState {
    return this.carried.get(session) ?? DIRECT_START;
  }

  private setState(session: string, state: DirectClientState): void {
    this.carried.delete(session);
    if (state.carriedTokens > 0 || state.pendingHeldTokens !== undefined) {
      this.carried.set(session, state);
    }
    forgetOldest(this.carried, this.max);
  }
}
