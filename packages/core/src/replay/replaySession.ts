/**
 * The replay engine: drives one recorded session, turn by turn, through a real AgentSession (the
 * real turn loop, pre-send step, density and compression) whose model serves the recorded AI
 * entries and whose tools return the recorded responses, and reports what the policy did.
 */
import { performance } from 'node:perf_hooks';
import { AgentSession } from '../session/AgentSession.js';
import { ContextOverflowError } from '../core/chatTypes.js';
import type { IContent } from '../services/history/IContent.js';
import { o200kTokenCounter, type TokenCounter } from '../services/history/TokenCounter.js';
import type { PromptResolver } from '../prompt-config/PromptResolver.js';
import type { EphemeralSettings } from '../settings/settingsRegistry.js';
import { SettingsService } from '../settings/SettingsService.js';
import { instrumentStrategy } from './instrumentStrategy.js';
import { OFFLINE_SUMMARIZER_LABEL, OfflineSummaryProvider } from './OfflineSummaryProvider.js';
import type { ExposureLoss, UnreclaimedStale } from './oracle/ExposureTracker.js';
import type { RecordedEntry, ReplayTurn } from './planReplay.js';
import type { PreparedReplay } from './prepareReplay.js';
import { ReplayProvider } from './ReplayProvider.js';
import { ReplayRecorder, type OverheadSample, type RecordedCall } from './ReplayRecorder.js';
import { ReplayTurnEnd } from './replayErrors.js';
import { policyStrategy, type ReplayPolicy } from './replayPolicies.js';
import type { ReplaySessionReport } from './replayReport.js';
import { ReplayToolExecutor } from './ReplayToolExecutor.js';
import { checkImport, describeImportCheck } from '../transcripts/checkImport.js';
import {
  isManualCompaction,
  isRecordedSummary,
  recordedCompactionWallMs,
  recordedSummaryOutputText,
} from './recordedCompactions.js';
import { planReattachments } from './planReattachments.js';
import { openSentLog, type SentLog, type SentLogTarget } from './sentLog.js';

/** How outputs label the summaries of the `recorded` policy. */
export const RECORDED_SUMMARIZER_LABEL =
  'the recorded agent (its own compaction summaries, as recorded)';

/** The limit a policy that lifts it (`none`) runs with. */
export const UNLIMITED_CONTEXT = 1_000_000_000;

export interface ReplayOptions {
  readonly policy: ReplayPolicy;
  readonly contextLimit: number;
  /** Settings applied on top of the policy's (validated; a bad value throws `SettingError`). */
  readonly settings?: EphemeralSettings;
  /** Default: o200k. */
  readonly tokenCounter?: TokenCounter;
  /** Clock for the density overhead figures (ms). Default: `performance.now`. */
  readonly now?: () => number;
  /**
   * Where to write what each model call was sent (`sentLog.ts`: one file for this session, policy
   * and window). Default: nowhere.
   */
  readonly sent?: SentLogTarget;
}

export interface ReplayRun {
  readonly report: ReplaySessionReport;
  /** Context tokens of each model call. */
  readonly series: readonly number[];
  /**
   * Per model call (aligned with `series`), the prompt tokens the recorded agent's provider
   * reported for the reply that answers it, where the transcript records usage.
   */
  readonly recordedPromptTokens: readonly (number | undefined)[];
  /** Per compaction (the policy's own or, for `recorded`, the agent's), the calls made before it. */
  readonly compactionCalls: readonly number[];
  /** Per model call, the thinking-signature characters kept in its context (`keptSignatureChars`). */
  readonly keptSignatureChars: readonly number[];
  readonly overhead: readonly OverheadSample[];
  /** Every exposure the policy removed, with the oracle's verdict. */
  readonly losses: readonly ExposureLoss[];
  /** Stale exposures not removed while stale, with what became of them. */
  readonly unreclaimedStale: readonly UnreclaimedStale[];
}

/**
 * When a replayed model call was made in the recording: the recorded time of the reply that
 * answers it (importers set `metadata.timestamp` where the format records one); unknown otherwise.
 */
export function recordedCallTime(reply: RecordedEntry): number | undefined {
  const time = reply.entry.metadata?.timestamp;
  return typeof time === 'number' && Number.isFinite(time) ? time : undefined;
}

/** The recorded call `reply` answers: its position, time and model. */
function recordedCall(reply: RecordedEntry): RecordedCall {
  const model = reply.entry.metadata?.model;
  return {
    position: reply.position,
    timeMs: recordedCallTime(reply),
    model: typeof model === 'string' ? model : undefined,
  };
}

/** The prompt tokens the recorded provider billed for the call `reply` answers, if recorded. */
export function recordedPromptTokens(reply: RecordedEntry): number | undefined {
  const tokens = reply.entry.metadata?.usage?.promptTokens;
  return typeof tokens === 'number' && tokens > 0 ? tokens : undefined;
}

/** After every recording in the corpus. */
const REPLAY_EPOCH_MS = Date.UTC(2030, 0, 1);

/**
 * The replayed session's own clock (what it stamps history entries with and times model calls
 * by): one millisecond a reading from a fixed instant, so the same session replays to the same
 * text (a compacted transcript's recall id hashes its entries, stamps included). Durations are
 * measured apart, with the replay's `now`.
 */
function replayClock(): () => number {
  let at = REPLAY_EPOCH_MS;
  return () => ++at;
}

/** The summarizer's prompt is not read by the offline summarizer; any text will do. */
const REPLAY_PROMPTS: PromptResolver = {
  resolveFile: () => Promise.resolve('Summarize the conversation as a <state_snapshot>.'),
};

/**
 * Replays a prepared session under one policy. Never touches the network; touches the file system
 * only to write `options.sent` (may throw its `SentLogError`).
 */
export async function replaySession(
  prepared: PreparedReplay,
  options: ReplayOptions,
): Promise<ReplayRun> {
  const { session } = prepared;
  const sent =
    options.sent === undefined
      ? undefined
      : await openSentLog(options.sent, {
          file: session.file,
          sessionIndex: session.sessionIndex,
          policy: options.policy.id,
          window: options.policy.unlimited === true ? null : options.contextLimit,
        });
  try {
    return await new SessionReplayer(prepared, options, sent).run();
  } finally {
    await sent?.close();
  }
}

class SessionReplayer {
  private readonly session: AgentSession;
  private readonly provider: ReplayProvider;
  private readonly tools: ReplayToolExecutor;
  private readonly recorder: ReplayRecorder;
  private readonly seenHumans = new Set<IContent>();
  private readonly positions = new Map<IContent, number>();
  private turns = 0;
  private overflowCalls = 0;
  private readonly recordedPrompts: (number | undefined)[] = [];
  /** Per recorded summary, what the agent restored after it (`recorded` only). */
  private readonly reattachments: ReadonlyMap<IContent, IContent>;

  constructor(
    private readonly prepared: PreparedReplay,
    private readonly options: ReplayOptions,
    sent: SentLog | undefined,
  ) {
    const now = options.now ?? (() => performance.now());
    this.provider = new ReplayProvider((request, reply) => {
      this.recordedPrompts.push(recordedPromptTokens(reply));
      return this.recorder.modelCall(request, recordedCall(reply));
    });
    this.tools = new ReplayToolExecutor(prepared.plan.responses, (position) =>
      this.recorder.tracker.advance(position),
    );
    for (const turn of prepared.plan.turns) {
      if (turn.kind === 'send') this.positions.set(turn.message.entry, turn.message.position);
    }
    this.session = this.createSession(now);
    this.reattachments =
      options.policy.followsRecordedCompactions === true
        ? planReattachments(prepared.plan.contents)
        : new Map();
    this.recorder = new ReplayRecorder({
      prepared,
      history: this.session.history,
      now,
      tokenCounter: options.tokenCounter ?? o200kTokenCounter,
      sent,
    });
    this.session.chat.events.on('contentRecorded', ({ content }) => this.onRecorded(content));
    this.session.compression.events.on('densityApplied', (e) => this.recorder.onDensityApplied(e));
    this.session.compression.events.on('compressed', (e) => this.recorder.onCompressed(e));
  }

  async run(): Promise<ReplayRun> {
    for (const turn of this.prepared.plan.turns) {
      if (turn.kind === 'record') {
        for (const human of turn.direct) await this.recordHuman(human);
        continue;
      }
      this.recorder.startTurn(++this.turns);
      if (turn.kind === 'send') {
        for (const human of turn.direct) await this.recordHuman(human);
        await this.followRecordedCompaction(turn.message.entry);
      }
      this.provider.load(turn.replies);
      await this.runTurn(turn);
    }
    await this.session.history.waitForTokenUpdates();
    return this.result();
  }

  private createSession(now: () => number): AgentSession {
    const { policy, contextLimit } = this.options;
    const summarizer = new OfflineSummaryProvider();
    const settings = new SettingsService({
      session: {
        ...policy.settings,
        ...this.options.settings,
        'context-limit': policy.unlimited === true ? UNLIMITED_CONTEXT : contextLimit,
      },
    });
    return new AgentSession({
      settings,
      workspaceRoot: this.prepared.workspaceRoot,
      provider: () => this.provider,
      resolveProvider: () => summarizer,
      tools: this.tools,
      promptResolver: REPLAY_PROMPTS,
      promptBaseDir: '/replay',
      sessionId: 'replay',
      now: replayClock(),
      maxModelCalls: Number.MAX_SAFE_INTEGER,
      ...(this.options.tokenCounter ? { tokenCounter: this.options.tokenCounter } : {}),
      resolveStrategy: (name) => {
        const ports = {
          contextTokens: () => this.session.history.getTotalTokens(),
          contextLimit: () => this.session.runtime.contextLimit(),
        };
        return instrumentStrategy(policyStrategy(policy, name, ports), this.recorder, now);
      },
    });
  }

  /** One turn; a context overflow makes the next reply a forced (counted) call, then goes on. */
  private async runTurn(turn: Exclude<ReplayTurn, { kind: 'record' }>): Promise<void> {
    let step =
      turn.kind === 'send'
        ? () => this.session.sendMessage(turn.message.entry)
        : () => this.continueTurn();
    for (;;) {
      try {
        await step();
        return;
      } catch (error) {
        if (error instanceof ReplayTurnEnd) return;
        if (!(error instanceof ContextOverflowError)) throw error;
      }
      if (turn.kind === 'send' && !this.seenHumans.has(turn.message.entry)) {
        this.recordDirect(turn.message);
      }
      if (!(await this.forceReply())) return;
      step = () => this.continueTurn();
    }
  }

  private async continueTurn(): Promise<void> {
    const stream = this.session.chat.continueStream();
    for (;;) {
      const next = await stream.next();
      if (next.done) return;
    }
  }

  /**
   * The context does not fit even after compression: the next recorded reply is taken as if the
   * model had answered anyway (the call is counted, and flagged), its tools answered and recorded.
   * True when the turn goes on.
   */
  private async forceReply(): Promise<boolean> {
    const reply = this.provider.take();
    if (reply === undefined) return false;
    this.overflowCalls++;
    this.recordedPrompts.push(recordedPromptTokens(reply));
    await this.recorder.modelCall(
      { contents: this.session.history.getCurated() },
      recordedCall(reply),
    );
    this.recordDirect(reply);
    const calls = reply.entry.blocks.filter((block) => block.type === 'tool_call');
    if (calls.length === 0) return false;
    const responses = [];
    for (const call of calls) responses.push(await this.tools.execute(call));
    this.recordDirect({ entry: { speaker: 'tool', blocks: responses }, position: -1 });
    return this.provider.remaining > 0;
  }

  private async recordHuman(human: RecordedEntry): Promise<void> {
    await this.followRecordedCompaction(human.entry);
    this.recordDirect(human);
  }

  /**
   * Under a policy that follows the agent's own compactions, a recorded summary after earlier
   * content resets the history: the recorder prices the summarization call and counts the
   * compaction, then the history is emptied and holds what the agent restored (recent files,
   * its todo list; `planReattachments`) before the summary goes in as recorded. Under any other
   * policy the summary stays the next message, after the compression a `/compact` asks for.
   */
  private async followRecordedCompaction(entry: IContent): Promise<void> {
    if (this.options.policy.followsRecordedCompactions !== true) {
      await this.compactAsTheUserAsked(entry);
      return;
    }
    if (!isRecordedSummary(entry) || this.session.history.length === 0) return;
    const counter = this.options.tokenCounter ?? o200kTokenCounter;
    // The summarizer wrote only the summary, not the user messages a Codex boundary restates.
    const outputTokens = await counter.countText(recordedSummaryOutputText(entry));
    await this.recorder.recordedCompaction(entry, outputTokens, recordedCompactionWallMs(entry));
    this.session.history.clear();
    const restored = this.reattachments.get(entry);
    if (restored) this.session.history.add(restored);
  }

  /**
   * A compaction the user asked for (`/compact`) is the user's command, not the agent's choice:
   * every policy that manages the context compresses there, as Dense's `/compress` would. The
   * reference (`none`) never compresses.
   */
  private async compactAsTheUserAsked(entry: IContent): Promise<void> {
    if (this.options.policy.unlimited === true || !isManualCompaction(entry)) return;
    if (this.session.history.length === 0) return;
    await this.session.compressNow();
  }

  private recordDirect(recorded: RecordedEntry): void {
    if (recorded.position >= 0) this.positions.set(recorded.entry, recorded.position);
    this.session.history.add(recorded.entry);
    this.session.compression.markDirty();
    this.onRecorded(recorded.entry);
  }

  private onRecorded(content: IContent): void {
    if (content.speaker === 'human') {
      this.seenHumans.add(content);
      const position = this.positions.get(content);
      if (position !== undefined) this.recorder.tracker.advance(position);
    }
    this.recorder.tracker.onRecorded(content);
  }

  private result(): ReplayRun {
    const { session } = this.prepared;
    const { policy } = this.options;
    const report = this.recorder.report(
      {
        file: session.file,
        format: session.format,
        sessionIndex: session.sessionIndex,
        strategy: policy.id,
        contextLimit: policy.unlimited === true ? null : this.options.contextLimit,
        summarizer: policy.usesSummarizer
          ? OFFLINE_SUMMARIZER_LABEL
          : policy.followsRecordedCompactions === true &&
              this.recorder.calls.totals().summarization.calls > 0
            ? RECORDED_SUMMARIZER_LABEL
            : null,
      },
      {
        turns: this.turns,
        toolCalls: this.tools.toolCalls,
        syntheticResponses: this.tools.syntheticResponses,
        overflowCalls: this.overflowCalls,
        finalContextTokens: this.session.history.getTotalTokens(),
      },
    );
    const exposures = this.recorder.exposures();
    const importProblem = describeImportCheck(checkImport(session));
    return {
      report: importProblem === undefined ? report : { ...report, importProblem },
      series: this.recorder.calls.totals().series,
      recordedPromptTokens: this.recordedPrompts,
      compactionCalls: this.recorder.compactionCalls,
      keptSignatureChars: this.recorder.keptSignatureChars,
      overhead: this.recorder.overheadSamples(),
      losses: exposures.losses,
      unreclaimedStale: exposures.unreclaimedStale,
    };
  }
}
