/**
 * Per-conversation proxy state: the sticky set of results already sent as pointers (so the same
 * history yields the same bytes on every later request), what the last read request sent (so a
 * request that cannot be read still repeats it), the time of the last request, the
 * message hashes of the last forwarded request (prefix stability). Totals live in ProxyStats. Bounded:
 * least-recently-used conversations beyond `maxConversations` and conversations idle longer than
 * `idleMs` are forgotten.
 */
import { PointerVerdicts } from './pointerVerdicts.js';
import { createHash } from 'node:crypto';
import type { BudgetState } from '../budget/compactWire.js';
import { CompactionReads } from '../budget/compactionReads.js';
import { EntryReplyDecisions } from './entryReplyDecisions.js';
import { MessageFingerprints } from './messageFingerprints.js';
import { ProxyPlans } from './proxyPlans.js';
import type { PointerSite } from '../splice/spliceEdits.js';
import type { ReadKey } from '../wire/keptRead.js';
import { RequestReadCache, type RequestReadCacheOptions } from '../wire/requestReadCache.js';
import type { SentPointers } from './sentPointers.js';
import { setNewest } from '../../utils/newestFirst.js';

export interface ConversationState {
  readonly id: string;
  /**
   * Results sent as the pointer, by position, call id and content: repeated on every later request
   * in which density still finds them stale.
   */
  readonly applied: Set<string>;
  /** What the last request read in full sent as pointers. */
  lastSent: SentPointers | undefined;
  lastRequestAt: number | undefined;
  /** Hash of each forwarded message of the previous request. */
  lastMessageHashes: readonly string[];
  /** The previous request's pointer sites (text order) and its read, for the next hashes. */
  lastPointers: { readonly sites: readonly PointerSite[]; readonly read: ReadKey | undefined };
  /** Reasons already logged for requests forwarded unchanged (logged once each). */
  readonly loggedReasons: Set<string>;
  /** The working budget's standing compaction and its token estimate's calibration. */
  readonly budget: BudgetState;
  /** The replies at entry decided for the results seen so far (`entryReplies.ts`). */
  readonly entryReplies: EntryReplyDecisions;
  /** The stale results' pointer verdicts reached so far, by recall id (`proxyPointer.ts`). */
  readonly pointerVerdicts: PointerVerdicts;
}

export interface ConversationStoreOptions {
  readonly maxConversations?: number;
  readonly idleMs?: number;
  readonly now?: () => number;
  /** Bounds of the parse cache (`requestReadCache.ts`). */
  readonly reads?: RequestReadCacheOptions;
}

/**
 * A short stable id for a conversation: the client's session header when it sends one, plus a
 * hash of the conversation's identity (side requests of one session, e.g. title generation, have
 * their own system prompt and so their own state).
 */
export function conversationKey(sessionHeader: string | undefined, identity: string): string {
  const hash = createHash('sha256').update(identity).digest('hex').slice(0, 16);
  return sessionHeader !== undefined && sessionHeader !== ''
    ? `session:${sessionHeader}:${hash}`
    : `hash:${hash}`;
}

/** A conversation the proxy has not seen yet. */
export function newConversation(id: string): ConversationState {
  return {
    id,
    applied: new Set(),
    lastSent: undefined,
    lastRequestAt: undefined,
    lastMessageHashes: [],
    lastPointers: { sites: [], read: undefined },
    loggedReasons: new Set(),
    budget: { compaction: undefined, promptTokensPerChar: undefined },
    entryReplies: new EntryReplyDecisions(),
    pointerVerdicts: new PointerVerdicts(),
  };
}

export class ConversationStore {
  private readonly states = new Map<string, ConversationState>();
  private readonly maxConversations: number;
  private readonly idleMs: number;
  private readonly now: () => number;
  /** What earlier requests already parsed and read, so a request reads only its new messages. */
  readonly reads: RequestReadCache;
  /** The original digest of each message read, for the prefix-stability check. */
  readonly fingerprints = new MessageFingerprints();
  /** The density decisions of the reads kept, reused by requests that extend them. */
  readonly plans = new ProxyPlans();
  /** The read each standing compaction was last confirmed on, for requests that resume from it. */
  readonly compactionReads = new CompactionReads();

  constructor(options: ConversationStoreOptions = {}) {
    this.maxConversations = options.maxConversations ?? 256;
    this.idleMs = options.idleMs ?? 6 * 60 * 60_000;
    this.now = options.now ?? Date.now;
    this.reads = new RequestReadCache(options.reads);
  }

  get size(): number {
    return this.states.size;
  }

  /** The state for `id`, created when unknown; marks it most recently used. */
  get(id: string, now: number = this.now()): ConversationState {
    this.expire(now);
    const state = this.states.get(id) ?? newConversation(id);
    this.keep(state);
    return state;
  }

  /** The state held for `id`, if any (not marked used). */
  peek(id: string): ConversationState | undefined {
    return this.states.get(id);
  }

  /** Holds `state` for its id in place of any other (a shared store's newer copy). */
  put(state: ConversationState): void {
    this.keep(state);
  }

  /** Drops the state held for `id` (a shared store has none). */
  forget(id: string): void {
    this.states.delete(id);
  }

  private keep(state: ConversationState): void {
    setNewest(this.states, state.id, state, this.maxConversations);
  }

  all(): readonly ConversationState[] {
    return [...this.states.values()];
  }

  private expire(now: number): void {
    for (const [id, state] of this.states) {
      if (state.lastRequestAt !== undefined && now - state.lastRequestAt > this.idleMs) {
        this.states.delete(id);
      }
    }
  }
}
