/**
 * A CompressionHandler for tests and benches: the given history and settings, a scripted provider,
 * the static prompt resolver. Everything else a test needs (strategy, todos, reserve, clock) goes
 * through `overrides`.
 */
import { CompressionHandler, type CompressionHandlerOptions } from '../core/CompressionHandler.js';
import type { IProvider } from '../providers/IProvider.js';
import type { AgentRuntimeContext } from '../runtime/AgentRuntimeContext.js';
import { createAgentRuntimeContext } from '../runtime/createAgentRuntimeContext.js';
import type { HistoryService } from '../services/history/HistoryService.js';
import { SettingsService } from '../settings/SettingsService.js';
import type { EphemeralSettings } from '../settings/settingsRegistry.js';
import { staticPromptResolver } from './compressionContext.js';
import { ScriptedProvider } from './ScriptedProvider.js';

export interface TestHandlerOptions {
  readonly history: HistoryService;
  readonly settings?: EphemeralSettings;
  readonly provider?: IProvider;
  /** The provider name the runtime state reports (default: the provider's own). */
  readonly providerName?: string;
  readonly workspaceRoot?: string;
  readonly transcriptPath?: string;
  readonly overrides?: Partial<Omit<CompressionHandlerOptions, 'history' | 'runtime'>>;
}

export function testCompressionHandler(options: TestHandlerOptions): {
  handler: CompressionHandler;
  runtime: AgentRuntimeContext;
  provider: IProvider;
} {
  const provider = options.provider ?? new ScriptedProvider();
  const { transcriptPath } = options;
  const runtime = createAgentRuntimeContext({
    settings: new SettingsService({ session: { ...options.settings } }),
    workspaceRoot: options.workspaceRoot ?? '/ws',
    ...(transcriptPath === undefined ? {} : { transcriptPath: () => transcriptPath }),
  });
  const name = options.providerName ?? provider.name;
  const handler = new CompressionHandler({
    history: options.history,
    runtime,
    runtimeState: () => ({ sessionId: 's', provider: name, model: provider.model }),
    resolveProvider: () => provider,
    promptResolver: staticPromptResolver(),
    promptBaseDir: '/prompts',
    ...options.overrides,
  });
  return { handler, runtime, provider };
}
