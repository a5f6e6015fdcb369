/**
 * The compression contract: what a strategy is, what it receives, and what it returns. Both kinds
 * of work live here — `optimize()` (continuous, deterministic, surgical edits) and `compress()`
 * (threshold-triggered replacement of the history).
 */
import type { RecallEntry } from '../../recall/planArchiveWrite.js';
import type { PointerStyle } from './recallPointers.js';
import type { DebugLogger } from '../../utils/logger.js';
import type {
  IContent,
  ToolCallBlock,
  ToolResponseBlock,
} from '../../services/history/IContent.js';
import type { EntryContext } from './density/entry/entryReplies.js';
import type { IProvider } from '../../providers/IProvider.js';
import type { PromptContext, PromptResolver } from '../../prompt-config/PromptResolver.js';
import type { AgentRuntimeState, RuntimeContextReader } from '../../runtime/AgentRuntimeContext.js';
import type { CompressionSettings } from './CompressionSettings.js';
import type { Todo } from '../../tools/todo-schemas.js';
import type { EarlyCompactionRisk } from './workingBudget/earlyCompactionRisk.js';

export { COMPRESSION_STRATEGIES, type CompressionStrategyName } from './compressionStrategyName.js';
import type { CompressionStrategyName } from './compressionStrategyName.js';
import { ZERO_DENSITY_PASS_COUNTS, type DensityPassCounts } from './densityPass.js';

/**
 * When a strategy works. `threshold`: only `compress()` once the context passes the threshold.
 * `continuous`: `optimize()` before every threshold check, and `compress()` past the threshold.
 * Both carry the threshold (a fraction of the context limit) used when no setting overrides it.
 */
export type StrategyTrigger =
  | { readonly mode: 'threshold'; readonly defaultThreshold: number }
  | { readonly mode: 'continuous'; readonly defaultThreshold: number };

/**
 * What `optimize()` does: the spec's config (REQ-HD-001.9), built by the orchestrator from the
 * settings (`densityConfigFrom`), plus two switches beyond the spec, off when absent. Each pass's
 * switch is one field here; `passSwitchesOf` reads them as `Record<DensityPass, boolean>`.
 */
export interface DensityConfig {
  /** READ→WRITE: a read of a file that a later successful write changed is pruned. */
  readonly readWritePruning: boolean;
  /** `@` inclusion dedup: an earlier inclusion of a file included again is cut. */
  readonly fileDedupe: boolean;
  /** Recency: tool results beyond the newest `recencyRetention` per tool are replaced. */
  readonly recencyPruning: boolean;
  /** Results kept per tool name by recency pruning; values below 1 mean 1. */
  readonly recencyRetention: number;
  /** Relative paths in tool parameters resolve against this directory. */
  readonly workspaceRoot: string;
  /**
   * READ→WRITE also treats unambiguous shell file operations (`cat f`, `sed -n '1,80p' f`,
   * `sed -i … f`, `cat > f <<EOF`, …) as reads and writes. Beyond the spec; off when absent.
   */
  readonly shellFileOps?: boolean;
  /**
   * `recall`: every pruned result or cut inclusion leaves a pointer naming its recall id; `spec`
   * or absent: the spec's pointers and removal of stale reads.
   */
  readonly pointerStyle?: PointerStyle;
}

/**
 * What each pass pruned: `readWrite` stale read calls (one per call/response pair), `dedup` stale
 * `@` inclusion spans cut out of human messages, `recency` tool responses replaced by a pointer.
 */
export type DensityResultMetadata = DensityPassCounts;

/**
 * Surgical edits against the raw history, by index. An index is never in both `removals` and
 * `replacements`; every index is in `[0, history.length)`; removals hold no duplicates.
 */
export interface DensityResult {
  readonly removals: readonly number[];
  readonly replacements: ReadonlyMap<number, IContent>;
  readonly metadata: DensityResultMetadata;
}

/** Everything a strategy may use to compress. */
export interface CompressionContext {
  /** The curated history (empty AI entries dropped). */
  readonly history: readonly IContent[];
  /**
   * The runtime as it was when this compression started (`runtimeContextSnapshot`): the spec's
   * `runtimeContext.ephemerals.preserveThreshold()`, `compressionThreshold()`, `contextLimit()`, …
   * read the same snapshot as `settings`, so the two never disagree.
   */
  readonly runtimeContext: RuntimeContextReader;
  /** The settings strategies read, as they were when this compression started. */
  readonly settings: CompressionSettings;
  /** Relative paths in tool parameters resolve against this directory. */
  readonly workspaceRoot: string;
  readonly runtimeState: AgentRuntimeState;
  /** Token count of a list of entries; cheap for entries already counted. */
  readonly estimateTokens: (contents: readonly IContent[]) => Promise<number>;
  readonly currentTokenCount: number;
  /**
   * Tokens of the message about to be added, not yet in `history` (a new user message): a
   * compression that aims at a size leaves room for it, so one rewrite makes it fit.
   */
  readonly pendingTokens?: number;
  readonly logger: DebugLogger;
  /** The provider to summarize with: the named profile's, or the active one. */
  readonly resolveProvider: (profileName?: string) => IProvider;
  readonly promptResolver: PromptResolver;
  readonly promptBaseDir: string;
  readonly promptContext: Readonly<Partial<PromptContext>>;
  readonly promptId: string;
  /** The agent's open todos, for LLM summaries that explain why each exists. */
  readonly activeTodos?: readonly Todo[];
  /** The whole todo list from the store: a working-budget summary shows it. */
  readonly todos?: readonly Todo[];
  /**
   * Only the working budget's early budget asked for this compression (the threshold did not, nor
   * did density plan one, nor the user): when the budget's plan declines, nothing else is done.
   */
  readonly earlyCompaction?: boolean;
  /**
   * The user asked for this compression (`/compress`, or a client's `/compact` in a replay): with a
   * working budget it compacts now, whatever the budgets say, to the share of the history a
   * budget compaction leaves.
   */
  readonly userAsked?: boolean;
  /** Where the full, uncompressed session transcript is recorded. */
  readonly transcriptPath?: string;
  /**
   * What an early working-budget compaction (one the history does not need yet: it still fits the
   * budget) may cost up front, from the session's risk budget; absent: no limit.
   */
  readonly earlyCompactionRisk?: EarlyCompactionRisk;
}

/**
 * A strategy's size target less the message about to be added (never below 0), so the compressed
 * history has room for it and one rewrite is enough.
 */
export function targetWithRoomForPending(target: number, context: CompressionContext): number {
  return Math.max(0, target - (context.pendingTokens ?? 0));
}

export const COMPRESSION_NOOP_REASONS = [
  'empty-history',
  'tail-covers-all',
  'too-few-to-compress',
  'already-under-target',
] as const;

export type CompressionNoopReason = (typeof COMPRESSION_NOOP_REASONS)[number];

/** Why a compression runs, when not because it is due (threshold, density's plan, `/compress`). */
export interface CompressionWhy {
  /** Asked for by the working budget's early budget alone (`CompressionContext.earlyCompaction`). */
  readonly earlyCompaction?: boolean;
  /** Asked for by the user (`CompressionContext.userAsked`). */
  readonly userAsked?: boolean;
}

export interface CompressionResultMetadata {
  readonly originalMessageCount: number;
  readonly compressedMessageCount: number;
  readonly strategyUsed: CompressionStrategyName;
  readonly llmCallMade: boolean;
  readonly topPreserved?: number;
  readonly bottomPreserved?: number;
  readonly middleCompressed?: number;
  /** Tool responses replaced by one-line summaries (high-density). */
  readonly toolResponsesSummarized?: number;
  /** Entries dropped from the head to reach the target. */
  readonly entriesDropped?: number;
  /** The token count the strategy aimed at, when it had one. */
  readonly targetTokens?: number;
  /**
   * The new history's summary carries the user's messages, the task list and the artifact trail
   * itself (a working-budget compaction): no trail entry goes in beside it.
   */
  readonly carriesTrail?: boolean;
  /**
   * The originals the new history's recall ids name that no entry holds (a working-budget
   * summary's removed messages as one transcript, images, skills): for the session's archive.
   */
  readonly recall?: readonly RecallEntry[];
}

/** `applied`: use `newHistory`. `noop`: nothing changed, and `reason` says why. */
export type CompressionResult =
  | {
      readonly kind: 'applied';
      readonly newHistory: readonly IContent[];
      readonly metadata: CompressionResultMetadata;
    }
  | {
      readonly kind: 'noop';
      readonly reason: CompressionNoopReason;
      readonly newHistory: readonly IContent[];
      readonly metadata: CompressionResultMetadata;
    };

export interface CompressionStrategy {
  readonly name: CompressionStrategyName;
  readonly requiresLLM: boolean;
  readonly trigger: StrategyTrigger;
  /**
   * Deterministic density optimization over the raw history. Pure: never mutates its input, never
   * throws on odd tool parameters. Called by the orchestrator before each threshold check.
   */
  optimize?(history: readonly IContent[], config: DensityConfig): DensityResult;
  /**
   * Replies that could be recorded instead of a tool result as it enters the history, best first,
   * computed lazily; the caller records the first that costs fewer tokens than the output. Pure.
   * Absent: results enter as they are.
   */
  toolResultAtEntry?(
    call: ToolCallBlock,
    response: ToolResponseBlock,
    context: EntryContext,
  ): Iterable<ToolResponseBlock>;
  /**
   * The message to record instead of a user message as it enters the history, or `undefined` to
   * record it as it is. Pure. Absent: messages enter as they are.
   */
  userMessageAtEntry?(message: IContent, context: EntryContext): IContent | undefined;
  /** Full compression, once the context passes the threshold. Errors propagate; no fallback. */
  compress(context: CompressionContext): Promise<CompressionResult>;
  /**
   * The most tokens an applied `compress()` leaves with `pendingTokens` about to be added, when the
   * strategy knows it without running (a deterministic target); the density schedule prices a
   * compression against a pressure batch with it.
   */
  compressedTokensAtMost?(settings: CompressionSettings, pendingTokens: number): number;
  /**
   * History tokens (with the message about to be added) from which the strategy asks for
   * `compress()` before the threshold: the working budget's early budget. Undefined: only the
   * threshold.
   */
  compactionDueTokens?(settings: CompressionSettings): number | undefined;
  /**
   * Whether the strategy asks for `compress()` now whatever the history's size: one call after a
   * compaction it may finish. Asked before each send; never a loop (once per compaction).
   */
  compactionFinishDue?(settings: CompressionSettings, history: readonly IContent[]): boolean;
}

/**
 * `strategy`'s entry methods bound to it, for a wrapper that forwards them (absent ones stay
 * absent, so content enters as it is).
 */
export function entryMethodsOf(
  strategy: CompressionStrategy,
): Pick<CompressionStrategy, 'toolResultAtEntry' | 'userMessageAtEntry'> {
  return {
    ...(strategy.toolResultAtEntry === undefined
      ? {}
      : { toolResultAtEntry: strategy.toolResultAtEntry.bind(strategy) }),
    ...(strategy.userMessageAtEntry === undefined
      ? {}
      : { userMessageAtEntry: strategy.userMessageAtEntry.bind(strategy) }),
  };
}

export const EMPTY_DENSITY_METADATA: DensityResultMetadata = ZERO_DENSITY_PASS_COUNTS;

export function isEmptyDensityResult(result: DensityResult): boolean {
  return result.removals.length === 0 && result.replacements.size === 0;
}
