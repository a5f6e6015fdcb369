/**
 * What a request leaves in its conversation's state once density decided it: the pointers applied
 * and sent, the message hashes (whether the prefix the previous request sent stayed byte for
 * byte), the time and the ledger entry.
 */
import type { ConversationStore } from '../decide/conversationStore.js';
import type { ScheduleDecision } from '../decide/proxySchedule.js';
import { recordSentPointers } from '../decide/sentPointers.js';
import { charsTakenOut, type PointerSite } from '../splice/spliceEdits.js';
import { charTokens } from '../decide/wireCache.js';
import { recordProxyRequest } from '../decide/proxyLedger.js';
import type { RequestRead } from '../wire/requestReadCache.js';
import type { TextSlices } from '../wire/segmentedText.js';
import type { ResultSite, WireHistory } from '../wire/wireHistory.js';
import type { DensifyOptions } from './DensifyResult.js';

function prefixStable(
  previous: readonly string[],
  current: readonly string[],
): boolean | undefined {
  if (previous.length === 0) return undefined;
  // The client moves its cache breakpoint off the previous newest message: compare the ones before.
  const compare = Math.min(previous.length - 1, current.length);
  for (let index = 0; index < compare; index++) {
    if (previous[index] !== current[index]) return false;
  }
  return true;
}

/**
 * What this request leaves in the conversation's state: the pointers applied and sent, the message
 * hashes (whether the prefix stayed stable), the ledger entry. Returns whether the prefix of the
 * previous request was kept byte for byte.
 */
export function rememberRequest(
  options: DensifyOptions,
  input: {
    readonly text: TextSlices;
    readonly wire: WireHistory;
    readonly state: ReturnType<ConversationStore['get']>;
    readonly stale: readonly { readonly site: ResultSite; readonly key: string }[];
    readonly sticky: readonly { readonly site: ResultSite; readonly key: string }[];
    readonly decision: ScheduleDecision;
    /** In text order. */
    readonly sites: readonly PointerSite[];
    /** Characters the pointers take out. */
    readonly removed: number;
    readonly read: RequestRead;
    /** The replies at entry written into this request. */
    readonly replies: readonly PointerSite[];
  },
): boolean | undefined {
  const { text, wire, state, stale, sticky, decision, sites, removed } = input;
  const prefix = input.read.newestMessagePrefix;
  if (decision.apply.length > 0) {
    const keys = new Map(stale.map(({ site, key }) => [site, key]));
    for (const site of decision.apply) state.applied.add(keys.get(site) ?? '');
  }
  const newestStart = wire.messageSpans.at(-1)?.start ?? 0;
  state.lastSent = recordSentPointers(text, wire, {
    sites,
    ...(prefix?.chars === newestStart ? { prefixHash: prefix.digest } : {}),
  });
  const { read } = input;
  const last = state.lastPointers;
  const resumed = read.resumedFrom;
  const sameMessages = resumed !== undefined && last.read === resumed.key ? resumed.messages : 0;
  const hashes = options.store.fingerprints.of(text, wire, sites, {
    fingerprints: state.lastMessageHashes,
    sites: last.sites,
    sameMessages,
  });
  const stable = prefixStable(state.lastMessageHashes, hashes);
  state.lastMessageHashes = hashes;
  state.lastPointers = { sites, read: read.key };
  state.lastRequestAt = options.now;
  recordProxyRequest(state, {
    at: options.now,
    stickyRemovedTokens: charTokens(
      sticky.reduce((sum, { site }) => sum + (site.end - site.start), 0),
    ),
    keptOutTokens: charTokens(input.replies.reduce((sum, site) => sum + charsTakenOut(site), 0)),
    batch: decision,
    promptTokens: charTokens(text.length - removed),
  });
  return stable;
}
