/**
 * Runs the scripted session once, under one strategy, in one copy of the sample project: a real
 * AgentSession with the real tools, the scripted model and the offline summarizer. Measures the
 * context the model receives at every call and what density and compression did.
 */
import {
  AgentSession,
  CallMetrics,
  createDefaultToolRegistry,
  createToolContext,
  DEFAULT_PROMPTS_DIR,
  FilePromptResolver,
  OfflineSummaryProvider,
  registryToolExecutor,
  requestSample,
  SettingsService,
  type ChatEvent,
  type DensityTotals,
  type KeptOutTotals,
  type TurnSummary,
} from '@dense/core';
import { expandAtReferences } from '../at/expandAtReferences.js';
import { DemoModel } from './DemoModel.js';
import { DemoScriptError } from './DemoScriptError.js';
import type { DemoVariant } from './demoVariants.js';
import type { DemoTurn } from './script/scriptBuilders.js';

export interface DemoSessionOptions {
  readonly variant: DemoVariant;
  /** The project copy the tools work in (absolute, real path). */
  readonly workspace: string;
  readonly script: readonly DemoTurn[];
  readonly contextLimit: number;
  /**
   * Where prompt overrides would be looked up; the demo passes an empty directory so its results
   * never depend on the user's own prompts.
   */
  readonly userPromptsDir: string;
  /** Called after each completed turn (1-based). */
  readonly onTurn?: (turn: number) => void;
  /** Every chat event of the session, with its turn (for verbose output and tests). */
  readonly onEvent?: (turn: number, event: ChatEvent) => void;
}

export interface DemoCompression {
  /** The turn during which the compression ran (1-based). */
  readonly turn: number;
  readonly tokensBefore: number;
  readonly tokensAfter: number;
}

export interface DemoRun {
  readonly variant: DemoVariant;
  readonly turnsCompleted: number;
  /** History tokens sent with the last model call of each turn (index 0 = turn 1). */
  readonly contextTokens: readonly number[];
  readonly peakContextTokens: number;
  /** History tokens summed over every model call: what a provider would bill as input. */
  readonly cumulativeInputTokens: number;
  /** The same calls priced with Anthropic's 5-minute prompt cache (base-input-token units). */
  readonly cacheWeightedInputTokens: number;
  readonly modelCalls: number;
  /** Calls to the offline summarizer (LLM strategies only). */
  readonly summarizerCalls: number;
  readonly toolCalls: number;
  /** Tool calls that returned an error; the script expects exactly these (red test runs). */
  readonly failedToolCalls: number;
  /** Compressions that changed the history. */
  readonly compressions: readonly DemoCompression[];
  readonly density: DensityTotals;
  /** Repeated copies recorded as a note naming the copy in context (high-density). */
  readonly keptOut: KeptOutTotals;
  /** The history's tokens after the last turn. */
  readonly finalContextTokens: number;
  /** The compression threshold in effect (a fraction of the context limit). */
  readonly threshold: number;
}

interface Measurements {
  turn: number;
  readonly perCall: number[];
  readonly lastCallOfTurn: number[];
  readonly compressions: DemoCompression[];
  toolCalls: number;
  failedToolCalls: number;
}

function buildSession(
  options: DemoSessionOptions,
  model: DemoModel,
  summarizer: OfflineSummaryProvider,
): AgentSession {
  const toolContext = createToolContext({ workspaceRoot: options.workspace, autoApprove: true });
  let clock = Date.UTC(2026, 0, 1);
  return new AgentSession({
    settings: new SettingsService({
      session: {
        ...options.variant.settings,
        'compression.strategy': options.variant.strategy,
        'context-limit': options.contextLimit,
      },
    }),
    workspaceRoot: options.workspace,
    provider: () => model,
    resolveProvider: () => summarizer,
    tools: registryToolExecutor(createDefaultToolRegistry(), toolContext),
    todoStore: toolContext.todoStore,
    promptResolver: new FilePromptResolver({ userPromptsDir: options.userPromptsDir }),
    promptBaseDir: DEFAULT_PROMPTS_DIR,
    sessionId: `demo-${options.variant.id}`,
    now: () => (clock += 1000),
  });
}

function checkToolResult(event: ChatEvent, model: DemoModel, m: Measurements): void {
  if (event.type !== 'tool_result') return;
  m.toolCalls++;
  const failed = event.response.error !== undefined;
  if (failed) m.failedToolCalls++;
  const expected = model.expectation(event.call.id)?.expectError === true;
  if (failed === expected) return;
  const what = `${event.call.name} ${JSON.stringify(event.call.parameters).slice(0, 120)}`;
  throw new DemoScriptError(
    m.turn,
    failed
      ? `${what} failed: ${event.response.error ?? ''}`
      : `${what} succeeded but was scripted to fail`,
  );
}

async function runTurn(
  session: AgentSession,
  model: DemoModel,
  turn: DemoTurn,
  m: Measurements,
  options: DemoSessionOptions,
): Promise<void> {
  const { workspace, onEvent } = options;
  const expansion = await expandAtReferences(turn.user, { workspaceRoot: workspace });
  if (expansion.notices.length > 0) throw new DemoScriptError(m.turn, expansion.notices.join(' '));
  model.startTurn(m.turn, turn);
  const stream = session.send(expansion.message, { promptId: `demo-turn-${m.turn}` });
  let next: IteratorResult<ChatEvent, TurnSummary>;
  while (!(next = await stream.next()).done) {
    onEvent?.(m.turn, next.value);
    checkToolResult(next.value, model, m);
  }
  if (model.pending > 0)
    throw new DemoScriptError(m.turn, `${model.pending} scripted replies were never requested`);
  m.lastCallOfTurn.push(m.perCall[m.perCall.length - 1] ?? 0);
}

/** Runs every turn of the script; throws DemoScriptError when a tool result contradicts the script. */
export async function runDemoSession(options: DemoSessionOptions): Promise<DemoRun> {
  const m: Measurements = {
    turn: 0,
    perCall: [],
    lastCallOfTurn: [],
    compressions: [],
    toolCalls: 0,
    failedToolCalls: 0,
  };
  const holder: { session?: AgentSession } = {};
  // Every call priced with Anthropic's 5-minute cache (the demo's calls are a second apart: warm).
  const priced = new CallMetrics();
  const model = new DemoModel({
    onRequest: async (request) => {
      const history = holder.session?.history;
      if (history === undefined) return;
      await history.waitForTokenUpdates();
      m.perCall.push(history.getTotalTokens());
      priced.record(requestSample(request, history));
    },
  });
  const summarizer = new OfflineSummaryProvider();
  const session = buildSession(options, model, summarizer);
  holder.session = session;
  session.compression.events.on('compressed', (event) => {
    if (event.result.kind !== 'applied') return;
    m.compressions.push({
      turn: m.turn,
      tokensBefore: event.tokensBefore,
      tokensAfter: event.tokensAfter,
    });
  });
  for (const turn of options.script) {
    m.turn++;
    await runTurn(session, model, turn, m, options);
    options.onTurn?.(m.turn);
  }
  const report = await session.contextReport();
  return {
    variant: options.variant,
    turnsCompleted: m.turn,
    contextTokens: m.lastCallOfTurn,
    peakContextTokens: Math.max(0, ...m.perCall),
    cumulativeInputTokens: m.perCall.reduce((a, b) => a + b, 0),
    cacheWeightedInputTokens: priced.totals().cacheWeightedInputTokens,
    modelCalls: model.calls,
    summarizerCalls: summarizer.summaries,
    toolCalls: m.toolCalls,
    failedToolCalls: m.failedToolCalls,
    compressions: m.compressions,
    density: report.density,
    keptOut: report.keptOut ?? { notes: 0, tokens: 0 },
    finalContextTokens: report.breakdown.totalTokens,
    threshold: report.threshold,
  };
}
