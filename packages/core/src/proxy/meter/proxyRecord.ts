/**
 * One proxied request as the stats record it: route, conversation, billed usage, how the reply
 * ended, what density removed, whether the cached prefix stayed byte-identical, and what it cost
 * against passing it through unchanged.
 */
import type { CompactionNote } from '../densify/densifyRequest.js';
import type { PassThroughPointers } from '../decide/sentPointers.js';
import type { ScheduleReason } from '../decide/proxySchedule.js';
import type { ImageLoad } from '../images/requestImages.js';
import type { ReplyEnd } from './forwardOutcome.js';
import type { RequestCost } from './passThroughCost.js';
import type { Usage } from './usageMeter.js';

export interface ProxyRequestRecord {
  readonly at: number;
  readonly route: string;
  readonly status: number;
  /** Whether the reply reached the client whole. */
  readonly end: ReplyEnd;
  readonly conversationId: string | undefined;
  readonly durationMs: number;
  readonly usage: Usage | undefined;
  /** Request characters density removed (0 when forwarded unchanged). */
  readonly removedChars: number;
  /**
   * The base64 images among `removedChars` (set from the request's pricing): counted by their
   * rule in `removedTokensOf`, not as characters.
   */
  readonly removedImages?: ImageLoad;
  readonly pointers: number;
  /** Results sent as a reply at entry (absent: none). */
  readonly replies?: number;
  readonly newEdits: number;
  readonly schedule: ScheduleReason;
  readonly prefixStable: boolean | undefined;
  /** The working budget's compaction, or the client's compaction answered by Dense. */
  readonly compaction?: CompactionNote;
  readonly unsupported?: string;
  /** With `unsupported`: whether the pointers already sent went out again (the cache kept). */
  readonly passThrough?: PassThroughPointers;
  /** Billed against pass-through, for billed requests whose reply reported usage. */
  readonly cost?: RequestCost;
  /** Prompt tokens upstream (reported) and as the client holds them (estimated). */
  readonly context?: RequestContext;
  /** Why this request counts as one client compaction avoided, if it does. */
  readonly compactionAvoided?: CompactionAvoided;
}

export interface RequestContext {
  /** Prompt tokens of the request as forwarded, from the reported usage. */
  readonly upstreamTokens: number;
  /** Estimated prompt tokens of the request as the client sent it. */
  readonly clientTokens: number;
}

/**
 * `answered`: the client's compaction request, answered by Dense without a model call;
 * `kept-under`: the client's held context passed its threshold, the context reported to it did not.
 */
export type CompactionAvoided = 'answered' | 'kept-under';
