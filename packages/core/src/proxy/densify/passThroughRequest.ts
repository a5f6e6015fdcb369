/**
 * The density step's fail-open path: a request it does not fully understand goes out as the
 * original bytes, repeating only the conversation's pointers already sent where that is
 * byte-exact (`sentPointers.ts`), and says why.
 */
import { requestCacheProvider } from '../../cache/cacheRules.js';
import { conversationKey, type ConversationState } from '../decide/conversationStore.js';
import type { DensifyOptions, DensifyResult } from './DensifyResult.js';
import { repeatSentPointers, type PassThroughPointers } from '../decide/sentPointers.js';
import { spliceEdits } from '../splice/spliceEdits.js';

export interface PassThroughInput {
  readonly reason: string;
  /** The request text, when it is valid UTF-8 (pointers can be repeated in it). */
  readonly text?: string;
  /**
   * The conversation's identity: '' when the request was read, but not far enough to know it;
   * absent when it was not read at all (no conversation state is touched).
   */
  readonly identity?: string;
}

function repeatFor(input: PassThroughInput, state: ConversationState | undefined) {
  if (input.text === undefined) return { sites: [], outcome: dropped('body-not-utf8') };
  if (state === undefined || input.identity === '') {
    return { sites: [], outcome: dropped('conversation-unknown') };
  }
  return repeatSentPointers(input.text, state.lastSent);
}

/** The request forwarded as it came, with only the pointers already sent repeated where byte-exact. */
export function passThroughRequest(
  options: DensifyOptions,
  input: PassThroughInput,
): DensifyResult {
  const id =
    input.identity === undefined ? undefined : conversationKey(options.sessionId, input.identity);
  const state = id === undefined ? undefined : options.store.get(id, options.now);
  const firstTimeReason = state?.loggedReasons.has(input.reason) !== true;
  if (state !== undefined) {
    state.loggedReasons.add(input.reason);
    state.lastRequestAt = options.now;
  }
  const repeat = repeatFor(input, state);
  const splice = spliceEdits(input.text ?? '', repeat.sites);
  return {
    body: repeat.sites.length === 0 ? options.body : Buffer.from(splice.text, 'utf8'),
    conversationId: id,
    unsupported: input.reason,
    firstTimeReason,
    passThrough: repeat.outcome,
    schedule: 'none',
    pointers: repeat.sites.length,
    newEdits: 0,
    recalls: [],
    removedChars: splice.removedChars,
    prefixStable: undefined,
    // Only ASCII is looked for: a body that is not UTF-8 is scanned as single bytes.
    provider: requestCacheProvider(options.api, input.text ?? options.body.toString('latin1')),
  };
}

function dropped(reason: 'body-not-utf8' | 'conversation-unknown'): PassThroughPointers {
  return { kind: 'dropped', reason, kept: 0 };
}
