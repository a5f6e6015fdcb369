/**
 * What a strategy's `compress()` reads, gathered from the session at the moment it is called:
 * the curated history (tokens settled), the runtime context and settings snapshot, the todo
 * lists, the transcript path and why the compression runs.
 */
import type { DebugLogger } from '../utils/logger.js';
import { runtimeContextSnapshot } from '../runtime/runtimeContextSnapshot.js';
import { compressionSettingsFrom } from './compression/CompressionSettings.js';
import type { CompressionContext, CompressionWhy } from './compression/types.js';
import type { EarlyCompactionRisk } from './compression/workingBudget/earlyCompactionRisk.js';
import type { CompressionHandlerOptions } from './CompressionHandlerOptions.js';

export interface CompressionCall {
  readonly promptId: string;
  /** Tokens of the message about to be added (0: none). */
  readonly pendingTokens: number;
  readonly why: CompressionWhy;
  /** The compression threshold in force (a share of the window). */
  readonly threshold: number;
  readonly logger: DebugLogger;
  readonly earlyCompactionRisk: EarlyCompactionRisk;
}

export async function compressionContextFor(
  options: CompressionHandlerOptions,
  call: CompressionCall,
): Promise<CompressionContext> {
  const { history, runtime } = options;
  const { promptId, pendingTokens, why } = call;
  await history.waitForTokenUpdates();
  const state = options.runtimeState();
  const todos = options.activeTodos?.() ?? [];
  const allTodos = options.todos?.() ?? [];
  const transcriptPath = runtime.config.getTranscriptPath();
  const runtimeContext = runtimeContextSnapshot(runtime, { compressionThreshold: call.threshold });
  return {
    history: history.getCurated(),
    runtimeContext,
    settings: compressionSettingsFrom(runtimeContext.settings, runtimeContext.contextLimit()),
    workspaceRoot: runtime.config.getWorkspaceRoot(),
    runtimeState: state,
    estimateTokens: (contents) => history.estimateTokensForContents(contents),
    currentTokenCount: history.getTotalTokens(),
    logger: call.logger,
    resolveProvider: options.resolveProvider,
    promptResolver: options.promptResolver,
    promptBaseDir: options.promptBaseDir,
    promptContext: {
      provider: state.provider,
      model: state.model,
      workspaceRoot: runtime.config.getWorkspaceRoot(),
    },
    promptId,
    ...(pendingTokens > 0 ? { pendingTokens } : {}),
    earlyCompactionRisk: call.earlyCompactionRisk,
    ...(todos.length === 0 ? {} : { activeTodos: todos }),
    ...(allTodos.length === 0 ? {} : { todos: allTodos }),
    ...(why.earlyCompaction === true ? { earlyCompaction: true } : {}),
    ...(why.userAsked === true ? { userAsked: true } : {}),
    ...(transcriptPath === undefined ? {} : { transcriptPath }),
  };
}
