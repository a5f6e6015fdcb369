/**
 * What a replay reports: one record per session and policy (the `--json` shape of
 * `dense replay`), and the totals over many sessions. Pure.
 */
import type { DensityPassCounts } from '../core/compression/densityPass.js';
import type { TranscriptFormat } from '../transcripts/types.js';
import { median, percentile } from './metrics/percentile.js';
import type { CategoryTokens } from './oracle/ExposureTracker.js';
import { roundCacheCosts, sumCacheCosts, type CacheCostByProvider } from './metrics/cacheCost.js';
import type { SurvivalCount } from './metrics/artifactSurvival.js';
import type { SummarizationTotals } from './metrics/CallMetrics.js';
import type { ReplayPolicyId } from './replayPolicies.js';
import type { GroundingTotals } from './grounding/GroundingOracle.js';
import { sumGrounding } from './grounding/sumGrounding.js';
import { sumIntent, type IntentCounts } from './intent/IntentOracle.js';
import { sumWorkRedone, type WorkRedoneCounts } from './grounding/WorkRedoneCounter.js';

export interface OverheadSummary {
  /** Milliseconds per pre-send density step (optimize + apply). */
  readonly median: number;
  readonly p99: number;
  /** Pre-send steps that ran `optimize()` (0 for strategies without one). */
  readonly samples: number;
}

/** The time users waited on compactions (ms). */
export interface TimeBlocked {
  /** Compactions whose wait is known (recorded or measured). */
  readonly timed: number;
  readonly totalMs: number;
  readonly maxMs: number;
}

export interface SessionTimeBlocked extends TimeBlocked {
  /** Per compaction, in order; `null` where the transcript records no time. */
  readonly perCompactionMs: readonly (number | null)[];
  /** `recorded`: the agent's own compactions, from the transcript's times; `measured`: Dense's. */
  readonly source: 'recorded' | 'measured';
}

export function summarizeTimeBlocked(perCompactionMs: readonly (number | null)[]): TimeBlocked {
  const known = perCompactionMs.filter((ms): ms is number => ms !== null);
  return {
    timed: known.length,
    totalMs: known.reduce((total, ms) => total + ms, 0),
    maxMs: Math.max(0, ...known),
  };
}

export interface ReplaySessionReport {
  readonly file: string;
  readonly format: TranscriptFormat;
  /** The session's position in a multi-session file (0 otherwise). */
  readonly sessionIndex: number;
  /**
   * Set when the import looks incomplete (`checkImport`): no model call, or far fewer calls than
   * the file holds. The figures then describe what was imported, not the recorded session.
   */
  readonly importProblem?: string;
  readonly strategy: ReplayPolicyId;
  /** The context limit used; `null` when the policy lifts it (`none`). */
  readonly contextLimit: number | null;
  /** Set when the policy's compression summarizes: who wrote the summaries (never an LLM). */
  readonly summarizer: string | null;
  /** Turns replayed: user messages sent plus model continuations. */
  readonly turns: number;
  readonly modelCalls: number;
  readonly toolCalls: number;
  /** Calls without a recorded response, answered with a synthetic error. */
  readonly syntheticResponses: number;
  /** Model calls made although the context did not fit even after compression. */
  readonly overflowCalls: number;
  /** Σ context tokens over all model calls. */
  readonly cumulativeInputTokens: number;
  readonly peakContextTokens: number;
  readonly finalContextTokens: number;
  /** Compressions that changed the history. */
  readonly compressions: number;
  /** 1-based turn of the first applied compression; `null` if none. */
  readonly firstCompressionTurn: number | null;
  readonly densityRemovedTokens: DensityPassCounts;
  /** All file content that entered the context, by how it entered (the oracle's exposures). */
  readonly exposureTokens: CategoryTokens;
  /** File content made stale by a later successful write, by how it entered the context. */
  readonly staleTokens: CategoryTokens;
  /** Of it, what the policy removed while it was stale. */
  readonly staleReclaimedTokens: CategoryTokens;
  /** Live file content (neither stale nor duplicate) removed or replaced. */
  readonly liveLostTokens: number;
  readonly liveLostTokensBy: { readonly density: number; readonly compression: number };
  /**
   * Of `liveLostTokens`, what the agent can still get back: the edit left a line naming the
   * original's recall id. The rest is lost for good.
   */
  readonly liveLostRecallableTokens?: number;
  /** Σ over compressions: touched paths and commands, and those still named after it. */
  readonly artifactSurvival?: SurvivalCount;
  /** Superseded copies removed while a newer copy of the unchanged file was in context. */
  readonly duplicateReclaimedTokens: number;
  readonly historyRewrites: number;
  readonly historyRewriteDepth: { readonly meanEntries: number; readonly meanTokens: number };
  /**
   * Σ per call under Anthropic's 5-minute cache rules (`priceCall`): unchanged prefix since the
   * previous call × 0.1, the rest written × 1.25, cold after a recorded gap over 5 minutes.
   */
  readonly cacheWeightedInputTokens: number;
  /** Every provider's cache pricing, with the gaps between the recorded call times. */
  readonly cacheCost: CacheCostByProvider;
  /** The same with every gap assumed warm (recorded times ignored). */
  readonly cacheCostAssumedWarm: CacheCostByProvider;
  /** Model calls whose recorded reply carries a time (the rest are assumed warm). */
  readonly timedModelCalls: number;
  readonly densityOverheadMs: OverheadSummary;
  /**
   * Specifics the agent used next that first appeared in earlier context, judged in what the
   * policy sent to each call: visible, recallable by a named recall id, or hidden.
   */
  readonly grounding?: GroundingTotals;
  /**
   * Whether the model still had the user's words: at each call, every earlier message the user
   * typed judged verbatim, cut (a long paste's head and tail) or lost in what the policy sent;
   * and whether the client's current task list and the latest failure were visible in it.
   */
  readonly intent?: IntentCounts;
  /** Tool calls re-fetching content across a compaction, and whether the policy still had it. */
  readonly workRedone?: WorkRedoneCounts;
  /**
   * Summarization calls of the agent's own compactions (`recorded`): their input and output are
   * in the input and cost figures above (output at each provider's output price).
   */
  readonly summarization?: SummarizationTotals;
  /** Per compaction, the user's wait: recorded for the agent's own, measured for Dense's. */
  readonly timeBlocked?: SessionTimeBlocked;
}

export interface ReplayTotals extends Omit<
  ReplaySessionReport,
  | 'file'
  | 'format'
  | 'sessionIndex'
  | 'importProblem'
  | 'strategy'
  | 'contextLimit'
  | 'summarizer'
  | 'firstCompressionTurn'
  | 'timeBlocked'
> {
  readonly timeBlocked?: TimeBlocked;
  readonly sessions: number;
  /** Sessions with at least one applied compression. */
  readonly sessionsCompressed: number;
}

const CATEGORY_KEYS = ['reads', 'inclusions', 'shellReads'] as const;

function sumBy(reports: readonly ReplaySessionReport[], pick: (r: ReplaySessionReport) => number) {
  return reports.reduce((total, report) => total + pick(report), 0);
}

function sumCategories(
  reports: readonly ReplaySessionReport[],
  pick: (r: ReplaySessionReport) => CategoryTokens,
): CategoryTokens {
  const out = { reads: 0, inclusions: 0, shellReads: 0 };
  for (const key of CATEGORY_KEYS) out[key] = sumBy(reports, (r) => pick(r)[key]);
  return out;
}

/** Summarization calls and time blocked, over sessions (the longest wait: the largest). */
function compactionTotals(
  reports: readonly ReplaySessionReport[],
): Pick<ReplayTotals, 'summarization' | 'timeBlocked'> {
  return {
    summarization: {
      calls: sumBy(reports, (r) => r.summarization?.calls ?? 0),
      inputTokens: sumBy(reports, (r) => r.summarization?.inputTokens ?? 0),
      outputTokens: sumBy(reports, (r) => r.summarization?.outputTokens ?? 0),
    },
    timeBlocked: {
      timed: sumBy(reports, (r) => r.timeBlocked?.timed ?? 0),
      totalMs: sumBy(reports, (r) => r.timeBlocked?.totalMs ?? 0),
      maxMs: Math.max(0, ...reports.map((r) => r.timeBlocked?.maxMs ?? 0)),
    },
  };
}

/**
 * Sums over sessions; peak is the largest; rewrite depths are weighted by rewrites; overhead
 * median and p99 come from `overheadSamples` (all sessions' samples pooled) when given, else
 * from the sessions' own medians.
 */
export function totalReplayReports(
  reports: readonly ReplaySessionReport[],
  overheadSamples?: readonly number[],
): ReplayTotals {
  const rewrites = sumBy(reports, (r) => r.historyRewrites);
  const weighted = (pick: (r: ReplaySessionReport) => number) =>
    rewrites === 0 ? 0 : sumBy(reports, (r) => pick(r) * r.historyRewrites) / rewrites;
  const samples = overheadSamples ?? reports.map((r) => r.densityOverheadMs.median);
  return {
    sessions: reports.length,
    sessionsCompressed: reports.filter((r) => r.compressions > 0).length,
    turns: sumBy(reports, (r) => r.turns),
    modelCalls: sumBy(reports, (r) => r.modelCalls),
    toolCalls: sumBy(reports, (r) => r.toolCalls),
    syntheticResponses: sumBy(reports, (r) => r.syntheticResponses),
    overflowCalls: sumBy(reports, (r) => r.overflowCalls),
    cumulativeInputTokens: sumBy(reports, (r) => r.cumulativeInputTokens),
    peakContextTokens: Math.max(0, ...reports.map((r) => r.peakContextTokens)),
    finalContextTokens: sumBy(reports, (r) => r.finalContextTokens),
    compressions: sumBy(reports, (r) => r.compressions),
    densityRemovedTokens: {
      readWrite: sumBy(reports, (r) => r.densityRemovedTokens.readWrite),
      dedup: sumBy(reports, (r) => r.densityRemovedTokens.dedup),
      recency: sumBy(reports, (r) => r.densityRemovedTokens.recency),
    },
    exposureTokens: sumCategories(reports, (r) => r.exposureTokens),
    staleTokens: sumCategories(reports, (r) => r.staleTokens),
    staleReclaimedTokens: sumCategories(reports, (r) => r.staleReclaimedTokens),
    liveLostTokens: sumBy(reports, (r) => r.liveLostTokens),
    liveLostTokensBy: {
      density: sumBy(reports, (r) => r.liveLostTokensBy.density),
      compression: sumBy(reports, (r) => r.liveLostTokensBy.compression),
    },
    liveLostRecallableTokens: sumBy(reports, (r) => r.liveLostRecallableTokens ?? 0),
    artifactSurvival: {
      touched: sumBy(reports, (r) => r.artifactSurvival?.touched ?? 0),
      present: sumBy(reports, (r) => r.artifactSurvival?.present ?? 0),
    },
    duplicateReclaimedTokens: sumBy(reports, (r) => r.duplicateReclaimedTokens),
    historyRewrites: rewrites,
    historyRewriteDepth: {
      meanEntries: weighted((r) => r.historyRewriteDepth.meanEntries),
      meanTokens: weighted((r) => r.historyRewriteDepth.meanTokens),
    },
    cacheWeightedInputTokens: sumBy(reports, (r) => r.cacheWeightedInputTokens),
    cacheCost: roundCacheCosts(sumCacheCosts(reports.map((r) => r.cacheCost))),
    cacheCostAssumedWarm: roundCacheCosts(
      sumCacheCosts(reports.map((r) => r.cacheCostAssumedWarm)),
    ),
    timedModelCalls: sumBy(reports, (r) => r.timedModelCalls),
    densityOverheadMs: {
      median: median(samples),
      p99: percentile(samples, 99),
      samples: sumBy(reports, (r) => r.densityOverheadMs.samples),
    },
    ...fidelityTotals(reports),
    ...compactionTotals(reports),
  };
}

/** What the model still had, summed: grounding, the user's words, work redone. */
function fidelityTotals(
  reports: readonly ReplaySessionReport[],
): Pick<ReplayTotals, 'grounding' | 'intent' | 'workRedone'> {
  return {
    grounding: sumGrounding(reports.map((r) => r.grounding)),
    intent: sumIntent(reports.map((r) => r.intent)),
    workRedone: sumWorkRedone(reports.map((r) => r.workRedone)),
  };
}
