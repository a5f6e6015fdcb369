/** A real CompressionContext for strategy tests: real settings, real token counting, fakes for I/O. */
import type { CompressionContext } from '../core/compression/types.js';
import { HistoryService } from '../services/history/HistoryService.js';
import type { IContent } from '../services/history/IContent.js';
import type { TokenCounter } from '../services/history/TokenCounter.js';
import type { IProvider } from '../providers/IProvider.js';
import type { PromptResolver } from '../prompt-config/PromptResolver.js';
import { compressionSettingsFrom } from '../core/compression/CompressionSettings.js';
import { createAgentRuntimeContext } from '../runtime/createAgentRuntimeContext.js';
import { runtimeContextSnapshot } from '../runtime/runtimeContextSnapshot.js';
import type { EphemeralSettings } from '../settings/settingsRegistry.js';
import { SettingsService } from '../settings/SettingsService.js';
import type { Todo } from '../tools/todo-schemas.js';
import { nullLogger } from '../utils/logger.js';
import { ScriptedProvider } from './ScriptedProvider.js';

/** Resolves every prompt file to a fixed text (or a per-file map). */
export function staticPromptResolver(
  prompts: Readonly<Record<string, string>> | string = 'Summarize the conversation.',
): PromptResolver {
  return {
    resolveFile: (_baseDir, relativePath) => {
      const text = typeof prompts === 'string' ? prompts : prompts[relativePath];
      return text === undefined
        ? Promise.reject(new Error(`no prompt '${relativePath}' in staticPromptResolver`))
        : Promise.resolve(text);
    },
  };
}

export interface TestCompressionContextOptions {
  readonly history: readonly IContent[];
  readonly settings?: EphemeralSettings;
  readonly workspaceRoot?: string;
  readonly modelContextLimit?: number;
  readonly provider?: IProvider;
  readonly resolveProvider?: (profileName?: string) => IProvider;
  readonly promptResolver?: PromptResolver;
  readonly tokenCounter?: TokenCounter;
  readonly activeTodos?: readonly Todo[];
  readonly transcriptPath?: string;
  readonly currentTokenCount?: number;
}

export async function makeCompressionContext(
  options: TestCompressionContextOptions,
): Promise<CompressionContext> {
  const runtime = createAgentRuntimeContext({
    settings: new SettingsService({ session: options.settings ?? {} }),
    workspaceRoot: options.workspaceRoot ?? '/workspace',
    ...(options.modelContextLimit === undefined
      ? {}
      : { modelContextLimit: options.modelContextLimit }),
  });
  const history = new HistoryService(
    options.tokenCounter === undefined ? {} : { tokenCounter: options.tokenCounter },
  );
  const provider = options.provider ?? new ScriptedProvider();
  const estimateTokens = (contents: readonly IContent[]) =>
    history.estimateTokensForContents(contents);
  const runtimeContext = runtimeContextSnapshot(runtime);
  return {
    history: options.history,
    runtimeContext,
    settings: compressionSettingsFrom(runtimeContext.settings, runtimeContext.contextLimit()),
    workspaceRoot: runtime.config.getWorkspaceRoot(),
    runtimeState: { sessionId: 'test-session', provider: provider.name, model: provider.model },
    estimateTokens,
    currentTokenCount: options.currentTokenCount ?? (await estimateTokens(options.history)),
    logger: nullLogger,
    resolveProvider: options.resolveProvider ?? (() => provider),
    promptResolver: options.promptResolver ?? staticPromptResolver(),
    promptBaseDir: '/prompts',
    promptContext: { provider: provider.name, model: provider.model },
    promptId: 'test-prompt',
    ...(options.activeTodos === undefined ? {} : { activeTodos: options.activeTodos }),
    ...(options.transcriptPath === undefined ? {} : { transcriptPath: options.transcriptPath }),
  };
}
