/**
 * One agent session, headless: the history, live settings, todo list, compression and density
 * orchestration and the turn loop, wired together. The CLI drives it interactively; the replay
 * engine drives it with recorded turns. Collaborators with I/O (provider, tools, prompts) are
 * passed in.
 */
import { randomUUID } from 'node:crypto';
import type { DebugLogger } from '../utils/logger.js';
import { HistoryService } from '../services/history/HistoryService.js';
import {
  textBlock,
  type IContent,
  type ToolCallBlock,
  type ToolResponseBlock,
} from '../services/history/IContent.js';
import type { EntryContext } from '../core/compression/density/entry/entryReplies.js';
import { isShorterInTokens } from '../core/compression/shorterInTokens.js';
import { o200kTokenCounter, type TokenCounter } from '../services/history/TokenCounter.js';
import { recentTokenCounts } from '../services/history/recentTokenCounts.js';
import { TodoStore } from '../services/todo/TodoStore.js';
import type { IProvider } from '../providers/IProvider.js';
import type { PromptResolver } from '../prompt-config/PromptResolver.js';
import { createAgentRuntimeContext } from '../runtime/createAgentRuntimeContext.js';
import type { AgentRuntimeContext } from '../runtime/AgentRuntimeContext.js';
import type { SettingsService } from '../settings/SettingsService.js';
import type { CompressionStrategy, CompressionStrategyName } from '../core/compression/types.js';
import { CompressionHandler, type CompressionEvent } from '../core/CompressionHandler.js';
import { GeminiChat, type LimitedToolResponse } from '../core/geminiChat.js';
import { capToolOutput, toolOutputCapTokens } from '../core/capToolOutput.js';
import { cacheProviderFor, type CacheProviderName } from '../cache/index.js';
import type { DensityCacheTotals } from '../scheduler/densityCacheLedger.js';
import type { ChatEvent, SendOptions, ToolExecutor, TurnSummary } from '../core/chatTypes.js';
import {
  breakdownHistory,
  ContextStats,
  recallableTotals,
  type CompressionRecord,
  type DensityTotals,
  type HistoryBreakdown,
  type KeptOutTotals,
  type RecallableTotals,
} from './ContextStats.js';

export interface AgentSessionOptions {
  readonly settings: SettingsService;
  readonly workspaceRoot: string;
  /** The provider to call now. */
  readonly provider: () => IProvider;
  /** The provider for LLM summaries of a named profile (`compression.profile`); default: current. */
  readonly resolveProvider?: (profileName?: string) => IProvider;
  readonly tools: ToolExecutor;
  readonly promptResolver: PromptResolver;
  readonly promptBaseDir: string;
  readonly todoStore?: TodoStore;
  readonly tokenCounter?: TokenCounter;
  readonly modelContextLimit?: () => number | undefined;
  readonly maxOutputTokens?: () => number | undefined;
  readonly completionReserve?: () => number;
  readonly systemPrompt?: () => string | undefined;
  readonly transcriptPath?: () => string | undefined;
  readonly sessionId?: string;
  /** Replaces the strategy factory (the replay benchmark plugs in peer policies this way). */
  readonly resolveStrategy?: (name: CompressionStrategyName) => CompressionStrategy;
  readonly maxModelCalls?: number;
  readonly logger?: DebugLogger;
  readonly now?: () => number;
}

export interface ContextReport {
  readonly strategy: CompressionStrategyName;
  readonly threshold: number;
  readonly contextLimit: number;
  readonly breakdown: HistoryBreakdown;
  readonly density: DensityTotals;
  readonly reclaimedTokens: number;
  readonly compressions: readonly CompressionRecord[];
  /** Density's prompt-cache effect so far, priced under the session provider's rules. */
  readonly densityCache?: DensityCacheReport;
  /** Removed content the history still names by recall id: the `recall` tool returns it. */
  readonly recallable?: RecallableTotals;
  /** Repeated copies recorded as a note naming the copy already in context. */
  readonly keptOut?: KeptOutTotals;
}

export interface DensityCacheReport extends DensityCacheTotals {
  /** The cache rules the net below is priced with (the session's provider). */
  readonly provider: CacheProviderName;
  /** `netWeightedTokens` under those rules (negative: density saved). */
  readonly net: number;
}

export class AgentSession {
  readonly sessionId: string;
  readonly history: HistoryService;
  readonly runtime: AgentRuntimeContext;
  readonly todoStore: TodoStore;
  readonly compression: CompressionHandler;
  readonly chat: GeminiChat;
  readonly stats: ContextStats;

  private readonly currentProvider: () => IProvider;

  constructor(options: AgentSessionOptions) {
    this.currentProvider = options.provider;
    this.sessionId = options.sessionId ?? randomUUID();
    // One count per text: a tool output is measured for the cap, against a reply at entry and
    // in the history (`recentTokenCounts`).
    this.history = new HistoryService({
      tokenCounter: recentTokenCounts(options.tokenCounter ?? o200kTokenCounter),
    });
    this.todoStore = options.todoStore ?? new TodoStore();
    this.runtime = createAgentRuntimeContext({
      settings: options.settings,
      workspaceRoot: options.workspaceRoot,
      ...(options.modelContextLimit ? { modelContextLimit: options.modelContextLimit } : {}),
      ...(options.transcriptPath ? { transcriptPath: options.transcriptPath } : {}),
    });
    this.compression = this.createCompressionHandler(options);
    this.stats = new ContextStats(this.compression);
    this.chat = new GeminiChat({
      history: this.history,
      compression: this.compression,
      provider: options.provider,
      tools: options.tools,
      ...(options.systemPrompt ? { systemPrompt: options.systemPrompt } : {}),
      ...(options.maxOutputTokens ? { maxOutputTokens: options.maxOutputTokens } : {}),
      ...(options.maxModelCalls === undefined ? {} : { maxModelCalls: options.maxModelCalls }),
      ...(options.now ? { now: options.now } : {}),
      reviseToolResponse: (call, response) => this.reviseToolResponse(call, response),
      limitToolResponse: (response) => this.capToolResponse(response),
      reviseUserMessage: (message) => this.reviseUserMessage(message),
    });
    const clock = options.now ?? Date.now;
    this.chat.events.on('contentRecorded', ({ content }) => {
      if (content.speaker === 'ai') this.compression.scheduler.onModelCall(clock());
    });
  }

  /**
   * The strategy's replies at entry (high-density: an identical re-read of a file still in context,
   * runs of lines repeated from an output still in context). A reply is used only when it costs
   * fewer tokens than the output (a call id can cost more than a short output); if counting fails,
   * the output is recorded as it is.
   */
  private async reviseToolResponse(
    call: ToolCallBlock,
    response: ToolResponseBlock,
  ): Promise<ToolResponseBlock> {
    const strategy = this.compression.currentStrategy();
    const replies = strategy.toolResultAtEntry?.(call, response, this.entryContext());
    if (replies === undefined) return response;
    const asEntry = (block: ToolResponseBlock): IContent => ({ speaker: 'tool', blocks: [block] });
    let original: number | undefined;
    for (const reply of replies) {
      try {
        original ??= await this.history.estimateTokensForContents([asEntry(response)]);
        const kept = await this.history.estimateTokensForContents([asEntry(reply)]);
        if (!isShorterInTokens({ original, replacement: kept })) continue;
        this.keptOut(Promise.resolve(original - kept));
        return reply;
      } catch {
        return response;
      }
    }
    return response;
  }

  /**
   * Every strategy: an output over `compression.toolOutputCap` of the window is shown as its head
   * and tail around a notice naming its recall id; the whole output is kept for recall.
   */
  private async capToolResponse(response: ToolResponseBlock): Promise<LimitedToolResponse> {
    const outcome = await capToolOutput({
      block: response,
      capTokens: toolOutputCapTokens({
        toolOutputCap: this.runtime.settings.get('compression.toolOutputCap'),
        contextLimit: this.runtime.contextLimit(),
      }),
      countTokens: (text) =>
        this.history.estimateTokensForContents([{ speaker: 'tool', blocks: [textBlock(text)] }]),
    });
    if (outcome.kind === 'within-cap') return { response };
    return { response: outcome.block, original: outcome.original };
  }

  /** A reply kept `saved` tokens out at entry: the scheduler's ledger and the stats count it. */
  private keptOut(saved: Promise<number>): void {
    this.compression.scheduler.keptOut(saved);
    this.stats.keptOut(saved);
  }

  /** Tells the stats what a note kept out: the content's tokens less the note's. */
  private countKeptOut(original: IContent, note: IContent): void {
    const count = (entry: IContent) => this.history.estimateTokensForContents([entry]);
    this.keptOut(Promise.all([count(original), count(note)]).then(([a, b]) => a - b));
  }

  /** The strategy's note at entry (high-density: an `@` inclusion identical to one in context). */
  private reviseUserMessage(message: IContent): IContent {
    const strategy = this.compression.currentStrategy();
    const revised = strategy.userMessageAtEntry?.(message, this.entryContext());
    if (revised === undefined) return message;
    this.countKeptOut(message, revised);
    return revised;
  }

  private entryContext(): EntryContext {
    return {
      history: this.history.getRawHistory(),
      settings: this.runtime.settings,
      workspaceRoot: this.runtime.config.getWorkspaceRoot(),
    };
  }

  get settings(): SettingsService {
    return this.runtime.settings;
  }

  send(message: string | IContent, options?: SendOptions): AsyncGenerator<ChatEvent, TurnSummary> {
    return this.chat.sendMessageStream(message, options);
  }

  sendMessage(message: string | IContent, options?: SendOptions): Promise<TurnSummary> {
    return this.chat.sendMessage(message, options);
  }

  /**
   * Runs the active strategy's compression now (`/compress`), after any pending density work; a
   * history still over the hard limit then gets the emergency escalation (`emergencyRoom`).
   */
  async compressNow(promptId = `manual-${Date.now()}`): Promise<CompressionEvent> {
    await this.history.waitForTokenUpdates();
    await this.compression.ensureDensityOptimized();
    const event = await this.compression.performCompression(promptId, 0, { userAsked: true });
    await this.compression.escalateIfOverHardLimit(promptId);
    return event;
  }

  /** Forgets the conversation (`/clear`); settings and todos stay. */
  clear(): void {
    this.history.clear();
    this.compression.markDirty();
  }

  async contextReport(): Promise<ContextReport> {
    await this.history.waitForTokenUpdates();
    return {
      strategy: this.compression.currentStrategy().name,
      threshold: this.compression.compressionThreshold(),
      contextLimit: this.runtime.contextLimit(),
      breakdown: breakdownHistory(this.history),
      density: this.stats.densityTotals(),
      reclaimedTokens: this.stats.reclaimedTokens(),
      compressions: this.stats.compressions(),
      densityCache: this.densityCacheReport(),
      recallable: recallableTotals(this.history.getRawHistory()),
      keptOut: await this.stats.keptOutTotals(),
    };
  }

  private densityCacheReport(): DensityCacheReport {
    const totals = this.stats.densityCache();
    const provider = cacheProviderFor(this.currentProvider().name);
    return { ...totals, provider, net: totals.netWeightedTokens[provider] };
  }

  private createCompressionHandler(options: AgentSessionOptions): CompressionHandler {
    const resolveProvider = options.resolveProvider ?? (() => options.provider());
    return new CompressionHandler({
      history: this.history,
      runtime: this.runtime,
      runtimeState: () => {
        const provider = options.provider();
        return { sessionId: this.sessionId, provider: provider.name, model: provider.model };
      },
      resolveProvider,
      promptResolver: options.promptResolver,
      promptBaseDir: options.promptBaseDir,
      activeTodos: () => this.todoStore.active(),
      densityRiskAllowance: () =>
        this.runtime.settings.get('compression.density.cacheRiskAllowance'),
      todos: () => this.todoStore.get(),
      ...(options.completionReserve ? { completionReserve: options.completionReserve } : {}),
      ...(options.resolveStrategy ? { resolveStrategy: options.resolveStrategy } : {}),
      ...(options.logger ? { logger: options.logger } : {}),
      ...(options.now ? { now: options.now } : {}),
    });
  }
}
