/**
 * The contract of the proxy's request-side density step (`densifyRequest`): what it is given and
 * what it hands the server to forward. Apart from the step so the pass-through path shares it.
 */
import type { CacheProviderName } from '../../cache/cacheRules.js';
import type { RecallEntry } from '../../recall/RecallArchive.js';
import type { ConversationStore } from '../decide/conversationStore.js';
import type { ScheduleReason } from '../decide/proxySchedule.js';
import type { PassThroughPointers } from '../decide/sentPointers.js';
import type { WorkingBudgetOptions } from './settleUnderBudget.js';
import type { WireApi } from '../wire/wireHistory.js';

export interface DensifyOptions {
  readonly api: WireApi;
  readonly body: Buffer;
  /** The client's session header, when it sends one. */
  readonly sessionId: string | undefined;
  readonly store: ConversationStore;
  readonly now: number;
  /** Estimated prompt tokens at which every prunable result is sent at once. */
  readonly pressureTokens: number;
  /**
   * Only repeat the conversation's sticky pointers, change no state (token counting: the count
   * the client gets matches what its next message will send).
   */
  readonly readOnly?: boolean;
  /** Keep conversations under a working budget (absent: off). */
  readonly workingBudget?: WorkingBudgetOptions;
  /** Replies at entry for repeated new results (`entryReplies.ts`); default on. */
  readonly entryReplies?: boolean;
  /**
   * Also repeated-lines replies at entry (`repeatedLinesEntryReply.ts`), while `entryReplies` is
   * on; default on.
   */
  readonly repeatedLinesReplies?: boolean;
}

/**
 * `kept`: the standing compaction repeated; `compacted`: a new or extended one; `answered`: the
 * client's compaction request answered by Dense, not forwarded. `cut`: messages the summary covers.
 */
export interface CompactionNote {
  readonly kind: 'kept' | 'compacted' | 'answered';
  readonly cut: number;
  /** `answered`: Dense had told the client its history was full (`clientHistoryBound.ts`). */
  readonly induced?: boolean;
  /** `answered`: estimated tokens of the summary the client keeps (characters / 4). */
  readonly summaryTokens?: number;
  /** `answered`: bytes of the messages the summary covers, and of the summary. */
  readonly coveredBytes?: number;
  readonly summaryBytes?: number;
}

export interface DensifyResult {
  readonly body: Buffer;
  /** The same bytes as `body`, as chunks to send one after the other, not joined (absent: `body`). */
  readonly chunks?: readonly Buffer[];
  readonly conversationId: string | undefined;
  /** Why the request went out unchanged, when it could not be read. */
  readonly unsupported?: string;
  /** True the first time this conversation hit that reason (log it once). */
  readonly firstTimeReason?: boolean;
  /** With `unsupported`: whether the pointers already sent went out again. */
  readonly passThrough?: PassThroughPointers;
  readonly schedule: ScheduleReason;
  /** Results sent as the pointer on this request (sticky + new). */
  readonly pointers: number;
  /** Results sent as a reply at entry naming an earlier call (absent: none). */
  readonly replies?: number;
  /** Results newly added this request (a new batch). */
  readonly newEdits: number;
  /** The originals of the results newly sent as pointers: to keep before the request goes out. */
  readonly recalls: readonly RecallEntry[];
  readonly removedChars: number;
  /** Messages the previous request also had are byte-identical (undefined on the first). */
  readonly prefixStable: boolean | undefined;
  /** The working budget's compaction on this request. */
  readonly compaction?: CompactionNote;
  /** The request's `model`, when it was read. */
  readonly model?: string;
  /** Whose cache rules price the request (`requestCacheProvider`), found once per request. */
  readonly provider: CacheProviderName;
  /**
   * Characters (UTF-16 code units, as the working budget counts) of the body sent, when the
   * request was read: the upstream's reported prompt over this calibrates the budget's estimate.
   */
  readonly sentChars?: number;
}

/** A request that goes out as it came: nothing decided on it, nothing pointed or replied. */
export function undecidedResult(
  body: Buffer,
  conversationId: string | undefined,
  provider: CacheProviderName,
): DensifyResult {
  return {
    ...{ body, conversationId, provider, schedule: 'none', prefixStable: undefined },
    ...{ pointers: 0, newEdits: 0, recalls: [], removedChars: 0 },
  };
}
