/**
 * With a shared store, a request's conversation state is asked for while its body is still
 * arriving, so the store's round trip overlaps receiving and reading the body instead of following
 * them. The conversation is only known once the body is read; the replica guesses it from the
 * request's beginning: its route, its session and the body's first bytes (a conversation's opening
 * messages, which every later request of it repeats byte for byte) named a conversation before.
 * A wrong guess costs one round trip and decides nothing: the state is loaded again for the
 * conversation the request names. The guesses are per replica and bounded, oldest out first.
 */
import { createHash } from 'node:crypto';
import type { EarlyLoad, SharedConversations } from '../../gateway/state/SharedConversations.js';
import type { ConversationStore } from '../decide/conversationStore.js';
import type { BodyStart } from './proxyHttp.js';
import type { WireApi } from '../wire/wireHistory.js';
import { setNewest } from '../../utils/newestFirst.js';

/** The body's first bytes a guess is keyed on (past a client's model and opening instructions). */
export const SIGNATURE_BYTES = 4096;
const MAX_GUESSES = 4096;

/** One request's early load: started when its body's first bytes are in, learnt from once read. */
export interface RequestEarlyLoad {
  readonly start: BodyStart;
  /** The load sent for the guessed conversation, if there was a guess. */
  readonly load: () => EarlyLoad | undefined;
  /** The conversation the request turned out to name. */
  learn(conversationId: string | undefined): void;
}

export class EarlyLoads {
  private readonly guesses = new Map<string, string>();

  constructor(
    private readonly shared: SharedConversations,
    private readonly store: ConversationStore,
  ) {}

  /** The early load of one request on `api` in session `sessionId`. */
  forRequest(api: WireApi, sessionId: string | undefined): RequestEarlyLoad {
    let signature: string | undefined;
    let load: EarlyLoad | undefined;
    return {
      start: {
        bytes: SIGNATURE_BYTES,
        seen: (first) => {
          signature = requestSignature(api, sessionId, first);
          const guess = this.guesses.get(signature);
          if (guess !== undefined) load = this.shared.prefetch(guess, this.store);
        },
      },
      load: () => load,
      learn: (conversationId) => {
        if (signature === undefined || conversationId === undefined) return;
        setNewest(this.guesses, signature, conversationId, MAX_GUESSES);
      },
    };
  }
}

/** What a guess is keyed on: the route, the session and the body's first bytes. */
export function requestSignature(
  api: WireApi,
  sessionId: string | undefined,
  first: Buffer,
): string {
  const hash = createHash('sha256').update(`${api}\u0000${sessionId ?? ''}\u0000`);
  return hash.update(first).digest('base64');
}
