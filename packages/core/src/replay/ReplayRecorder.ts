/**
 * Everything a replay measures while a session runs, fed by the engine and the session's events:
 * per-call context and cache figures, exposures lost to density edits and compressions, density
 * time per pre-send, compressions and density savings. Turns the measurements into the report.
 */
import { recallIdOfInclusion, recallIdOfResponse } from '../core/compression/recallPointers.js';
import { namedRecallIds } from '../session/ContextStats.js';
import type { IContent } from '../services/history/IContent.js';
import type { HistoryService } from '../services/history/HistoryService.js';
import type { CompressionEvent, DensityAppliedEvent } from '../core/CompressionHandler.js';
import {
  addDensityPassCounts,
  ZERO_DENSITY_PASS_COUNTS,
  type DensityPassCounts,
} from '../core/compression/densityPass.js';
import type { DensityResult } from '../core/compression/types.js';
import { CallMetrics, requestSample } from './metrics/CallMetrics.js';
import { DroppedThinking } from './metrics/DroppedThinking.js';
import { signatureCharsBesides } from './metrics/recordedUsage.js';
import type { TokenCounter } from '../services/history/TokenCounter.js';
import { ArtifactSurvival } from './metrics/artifactSurvival.js';
import { median, percentile } from './metrics/percentile.js';
import { ExposureTracker, type ExposureTotals } from './oracle/ExposureTracker.js';
import { GroundingOracle } from './grounding/GroundingOracle.js';
import { planGrounding } from './grounding/planGrounding.js';
import { IntentOracle } from './intent/IntentOracle.js';
import { planIntent } from './intent/planIntent.js';
import { planWorkState } from './intent/planWorkState.js';
import { workRedoneCounterFor, type WorkRedoneCounter } from './grounding/WorkRedoneCounter.js';
import type { StrategyObserver } from './instrumentStrategy.js';
import { exposureTokensOf, type PreparedReplay } from './prepareReplay.js';
import { summarizeTimeBlocked, type ReplaySessionReport } from './replayReport.js';
import { recordedCompactionStart } from './recordedCompactions.js';
import type { SentSink } from './sentLog.js';

/** One pre-send density step: how big the history was and how long optimize + apply took. */
export interface OverheadSample {
  readonly historyTokens: number;
  readonly entries: number;
  /** optimize() plus applying its edits (token recount of replaced entries included). */
  readonly ms: number;
  /** optimize() alone. */
  readonly optimizeMs?: number;
}

/** A replayed model call: the recorded reply that answers it. */
export interface RecordedCall {
  /** Its position in the recording. */
  readonly position: number;
  /** When it was made in the recording (ms since the epoch), if recorded. */
  readonly timeMs?: number | undefined;
  /** The model that answered, if recorded: decides which thinking the request is billed for. */
  readonly model?: string | undefined;
}

export interface ReplayRecorderInput {
  readonly prepared: PreparedReplay;
  readonly history: HistoryService;
  readonly now: () => number;
  /** Counts the thinking a call's model drops from its request. */
  readonly tokenCounter: TokenCounter;
  /** Receives what each model call was sent, as the oracles see it (`--sent`). */
  readonly sent?: SentSink | undefined;
}

/** Facts the engine knows at the end that the recorder does not observe itself. */
export interface RunFacts {
  readonly turns: number;
  readonly toolCalls: number;
  readonly syntheticResponses: number;
  readonly overflowCalls: number;
  readonly finalContextTokens: number;
}

export class ReplayRecorder implements StrategyObserver {
  readonly calls = new CallMetrics();
  readonly tracker: ExposureTracker;
  private readonly overhead: OverheadSample[] = [];
  private pendingEdit:
    | {
        readonly start: number;
        readonly optimizeMs: number;
        readonly before: readonly IContent[];
        readonly tokens: number;
      }
    | undefined;
  private compressBefore: readonly IContent[] | undefined;
  private compressStart: number | undefined;
  /** Per compaction, the user's wait in ms (`null`: not recorded). */
  private readonly blocked: (number | null)[] = [];
  /** Per compaction, the model calls made before it. */
  readonly compactionCalls: number[] = [];
  /** Per model call, the thinking-signature characters its model keeps in the context. */
  readonly keptSignatureChars: number[] = [];
  private blockedSource: 'recorded' | 'measured' = 'measured';
  private densityRemoved: DensityPassCounts = ZERO_DENSITY_PASS_COUNTS;
  private compressionCount = 0;
  private firstCompressionTurn: number | null = null;
  private currentTurn = 0;
  private readonly survival: ArtifactSurvival;
  private readonly grounding: GroundingOracle;
  private readonly intent: IntentOracle;
  private readonly workRedone: WorkRedoneCounter;
  private readonly sent: SentSink | undefined;

  /** Originals a compaction named that no entry holds, as the session's archive keeps them. */
  private readonly archived = new Map<string, string>();
  private readonly history: HistoryService;
  private readonly now: () => number;
  private readonly droppedThinking: DroppedThinking;
  /** The model of the latest call: the one that would write a recorded compaction's summary. */
  private lastModel: string | undefined;

  constructor(input: ReplayRecorderInput) {
    const { prepared } = input;
    this.history = input.history;
    this.now = input.now;
    this.droppedThinking = new DroppedThinking(input.tokenCounter);
    this.tracker = new ExposureTracker(prepared.ledger, exposureTokensOf(prepared), {
      ofResponse: recallIdOfResponse,
      ofInclusion: recallIdOfInclusion,
      namedIn: namedRecallIds,
    });
    this.survival = new ArtifactSurvival(prepared.workspaceRoot);
    this.grounding = new GroundingOracle(
      planGrounding(prepared.plan.contents),
      recallIdOfResponse,
      {
        textOf: (id) => this.archived.get(id),
      },
    );
    this.intent = new IntentOracle(
      planIntent(prepared.plan.contents),
      planWorkState(prepared.plan.contents),
    );
    this.workRedone = workRedoneCounterFor(prepared.plan.contents);
    this.sent = input.sent;
  }

  startTurn(turn: number): void {
    this.currentTurn = turn;
  }

  /**
   * A model call is about to be answered with the recorded reply `call`. The call is counted and
   * priced without the thinking its model drops (`thinkingKept`); the history keeps it.
   */
  async modelCall(
    request: {
      readonly contents: readonly IContent[];
      readonly cacheAnchors?: readonly IContent[];
    },
    call: RecordedCall,
  ): Promise<void> {
    await this.history.waitForTokenUpdates();
    this.lastModel = call.model ?? this.lastModel;
    const droppedTokens = await this.droppedThinking.of(request.contents, call.model);
    this.calls.record(requestSample(request, this.history, { timeMs: call.timeMs, droppedTokens }));
    // The entries whose thinking the model drops, found once for the price and the signatures.
    this.keptSignatureChars.push(signatureCharsBesides(request.contents, droppedTokens));
    await this.sent?.record(request.contents, call.position);
    this.grounding.onModelCall(request.contents, call.position);
    this.intent.onModelCall(request.contents, call.position);
    this.workRedone.onModelCall(request.contents, call.position);
    this.tracker.advance(call.position);
  }

  optimized(result: DensityResult, elapsedMs: number, before: readonly IContent[] | undefined) {
    const tokens = this.history.getTotalTokens();
    if (before === undefined) {
      this.overhead.push({
        historyTokens: tokens,
        entries: this.history.length,
        ms: elapsedMs,
        optimizeMs: elapsedMs,
      });
      return;
    }
    this.pendingEdit = { start: this.now() - elapsedMs, optimizeMs: elapsedMs, before, tokens };
  }

  compressing(): void {
    this.compressBefore = [...this.history.getRawHistory()];
    this.compressStart = this.now();
  }

  /**
   * The recorded agent compacted here: call while the history still holds the context at the
   * boundary (the engine then resets it to `summary`). Prices the summarization call (that
   * context as input, a new turn for the latest call's model, `outputTokens` of summary as output), judges what the summary dropped and
   * counts the compaction with its recorded wait.
   */
  async recordedCompaction(
    summary: IContent,
    outputTokens: number,
    wallMs: number | undefined,
  ): Promise<void> {
    await this.history.waitForTokenUpdates();
    const before = [...this.history.getRawHistory()];
    const contents = this.history.getCurated();
    const droppedTokens = await this.droppedThinking.of(contents, this.lastModel, contents.length);
    const sample = requestSample({ contents }, this.history, {
      timeMs: recordedCompactionStart(summary),
      droppedTokens,
    });
    this.calls.recordSummarization(sample, outputTokens);
    this.tracker.onEdit(before, [summary], 'compression');
    this.survival.onCompressed(before, [summary]);
    this.blockedSource = 'recorded';
    this.countCompaction(wallMs ?? null);
  }

  private countCompaction(blockedMs: number | null): void {
    this.compressionCount++;
    this.firstCompressionTurn ??= this.currentTurn;
    this.blocked.push(blockedMs);
    this.compactionCalls.push(this.calls.totals().modelCalls);
    this.workRedone.compacted();
  }

  onDensityApplied(event: DensityAppliedEvent): void {
    this.densityRemoved = addDensityPassCounts(this.densityRemoved, event.removedTokens);
    const pending = this.pendingEdit;
    if (pending === undefined) return;
    this.pendingEdit = undefined;
    this.tracker.onEdit(pending.before, this.history.getRawHistory(), 'density');
    this.overhead.push({
      historyTokens: pending.tokens,
      entries: pending.before.length,
      ms: this.now() - pending.start,
      optimizeMs: pending.optimizeMs,
    });
  }

  onCompressed(event: CompressionEvent): void {
    const before = this.compressBefore;
    this.compressBefore = undefined;
    const start = this.compressStart;
    this.compressStart = undefined;
    if (event.result.kind !== 'applied') return;
    for (const original of event.result.metadata.recall ?? []) {
      this.archived.set(original.id, original.text);
    }
    this.countCompaction(start === undefined ? null : this.now() - start);
    if (before === undefined) return;
    this.tracker.onEdit(before, this.history.getRawHistory(), 'compression');
    this.survival.onCompressed(before, this.history.getRawHistory());
  }

  overheadSamples(): readonly OverheadSample[] {
    return this.overhead;
  }

  exposures(): ExposureTotals {
    return this.tracker.totals();
  }

  report(
    identity: Pick<
      ReplaySessionReport,
      'file' | 'format' | 'sessionIndex' | 'strategy' | 'contextLimit' | 'summarizer'
    >,
    facts: RunFacts,
  ): ReplaySessionReport {
    const calls = this.calls.totals();
    const exposures = this.tracker.totals();
    const { density, compression } = exposures.lostTokens;
    const recallable = exposures.recallableLostTokens;
    const ms = this.overhead.map((sample) => sample.ms);
    return {
      ...identity,
      turns: facts.turns,
      modelCalls: calls.modelCalls,
      toolCalls: facts.toolCalls,
      syntheticResponses: facts.syntheticResponses,
      overflowCalls: facts.overflowCalls,
      cumulativeInputTokens: calls.cumulativeInputTokens,
      peakContextTokens: calls.peakContextTokens,
      finalContextTokens: facts.finalContextTokens,
      compressions: this.compressionCount,
      firstCompressionTurn: this.firstCompressionTurn,
      densityRemovedTokens: this.densityRemoved,
      exposureTokens: exposures.exposureTokens,
      staleTokens: exposures.staleTokens,
      staleReclaimedTokens: exposures.staleReclaimedTokens,
      liveLostTokens: density.live + compression.live,
      liveLostTokensBy: { density: density.live, compression: compression.live },
      liveLostRecallableTokens: recallable.density.live + recallable.compression.live,
      artifactSurvival: this.survival.totals(),
      duplicateReclaimedTokens: density.duplicate + compression.duplicate,
      historyRewrites: calls.historyRewrites,
      historyRewriteDepth: calls.historyRewriteDepth,
      cacheWeightedInputTokens: calls.cacheWeightedInputTokens,
      cacheCost: calls.cacheCost,
      cacheCostAssumedWarm: calls.cacheCostAssumedWarm,
      timedModelCalls: calls.timedCalls,
      densityOverheadMs: { median: median(ms), p99: percentile(ms, 99), samples: ms.length },
      grounding: this.grounding.totals(),
      intent: this.intent.totals(),
      workRedone: this.workRedone.totals(),
      summarization: calls.summarization,
      timeBlocked: {
        ...summarizeTimeBlocked(this.blocked),
        perCompactionMs: this.blocked,
        source: this.blockedSource,
      },
    };
  }
}
