/**
 * What the proxy server's request handling shares: its options and the state it holds for them
 * (upstreams, conversations, stats, the body bound, the recorder, the recall archive).
 */
import type * as http from 'node:http';
import type { TokenStore } from '../../gateway/auth/TokenStore.js';
import type { StatsTimeline } from '../../gateway/dashboard/StatsTimeline.js';
import type { SharedConversations } from '../../gateway/state/SharedConversations.js';
import type { EarlyLoads, RequestEarlyLoad } from './earlyLoads.js';
import type { RecallArchive } from '../../recall/RecallArchive.js';
import type { BodyBudget } from './bodyBudget.js';
import type { ConversationStore } from '../decide/conversationStore.js';
import type { ProxyStats } from '../meter/proxyStats.js';
import type { RequestRecorder } from './requestRecorder.js';

export interface ProxyServerOptions {
  readonly host?: string;
  /** 0 (default) picks a free port. */
  readonly port?: number;
  readonly anthropicUpstream?: string;
  readonly openaiUpstream?: string;
  /** Request bodies above this are refused with 413. Default 32 MiB. */
  readonly maxBodyBytes?: number;
  /**
   * Memory chat requests may hold at once (each body byte counts `MEMORY_PER_BODY_BYTE`, as
   * measured); a request past it gets 503 with `retry-after`. Default 256 MiB; one body of
   * `maxBodyBytes` always fits alone.
   */
  readonly maxBytesInFlight?: number;
  /** Conversations kept apart in the stats (default 256). */
  readonly maxStatsConversations?: number;
  /** Estimated prompt tokens at which every prunable result is sent at once. */
  readonly pressureTokens?: number;
  /**
   * Prompt tokens each Anthropic Messages conversation is kept under (older turns become one
   * summary message); undefined: derived from the model; 'off': no working budget.
   */
  readonly workingBudget?: number | 'off';
  /** Answer the client's own compaction request with Dense's summary (default true). */
  readonly answerCompaction?: boolean;
  /** Replies at entry for repeated new results (default true). */
  readonly entryReplies?: boolean;
  /** Also repeated-lines replies at entry (default true). */
  readonly repeatedLinesReplies?: boolean;
  /** Opt-in: write each request (credentials redacted) and its forwarded body here. */
  readonly recordDir?: string;
  /** Receives one line per request (and fail-open reasons). */
  readonly log?: (line: string) => void;
  readonly color?: boolean;
  readonly now?: () => number;
  readonly store?: ConversationStore;
  /**
   * Conversation state shared with other replicas (`dense proxy --state redis://…`); absent: the
   * process keeps it (one replica).
   */
  readonly shared?: SharedConversations;
  /**
   * The users' tokens. Required off loopback (requests without a valid token are refused); on
   * loopback a token is optional and attributes the request to its user.
   */
  readonly tokens?: TokenStore;
  /** Users who see the team's figures on `/dense/stats` and `/dense/dashboard`. */
  readonly admins?: readonly string[];
  /** Where each request's figures are counted per user over time (the dashboard's source). */
  readonly timeline?: StatsTimeline;
  /** The team's timeline summed across replicas (a shared store); absent: `timeline`. */
  readonly teamTimeline?: () => Promise<StatsTimeline | undefined>;
  /** Where pointed results are kept for `dense recall`. Default: `getDensePaths().recallDir`. */
  readonly recall?: OriginalsArchive;
  /** A user's own recall archive (`userRecall.ts`); default: a folder under `recall`'s. */
  readonly userRecall?: (user: string) => OriginalsArchive;
}

/** Where originals are kept and recalled: the archive on disk, or a gateway's on Redis. */
export type OriginalsArchive = Pick<RecallArchive, 'dir' | 'put' | 'lookup'>;

/** A chat request read whole, with its reply to write: what density and forwarding work on. */
export interface ChatExchange {
  readonly request: http.IncomingMessage;
  readonly response: http.ServerResponse;
  readonly body: Buffer;
  /** When the request arrived (before its body was read). */
  readonly started: number;
  /** The conversation's session, under its user's name (`scopedSessionId`). */
  readonly sessionId: string | undefined;
  readonly user: string | undefined;
  /** The request's early state load, with a shared store. */
  readonly early?: RequestEarlyLoad;
}

/** The server's options and state, handed to each request's handling. */
export interface ProxyContext {
  readonly options: ProxyServerOptions;
  readonly anthropic: URL;
  readonly openai: URL;
  readonly store: ConversationStore;
  readonly stats: ProxyStats;
  readonly now: () => number;
  readonly maxBodyBytes: number;
  readonly budget: BodyBudget;
  readonly recorder: RequestRecorder | undefined;
  readonly recall: OriginalsArchive;
  /** The users' archives opened so far (`userRecall.ts`). */
  readonly userRecalls: Map<string, OriginalsArchive>;
  /** With a shared store: state loads sent while bodies arrive (`earlyLoads.ts`). */
  readonly earlyLoads: EarlyLoads | undefined;
}
