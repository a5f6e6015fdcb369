/** Builds an AgentRuntimeContext over the live settings: every read sees the current values. */
import type { SettingsService } from '../settings/SettingsService.js';
import type { AgentRuntimeContext } from './AgentRuntimeContext.js';

/** Used when neither the `context-limit` setting nor the model table knows the window. */
export const FALLBACK_CONTEXT_LIMIT = 128_000;

export interface AgentRuntimeContextOptions {
  readonly settings: SettingsService;
  readonly workspaceRoot: string;
  /** The model's known context window (from the provider's model table); may change live. */
  readonly modelContextLimit?: number | (() => number | undefined);
  readonly transcriptPath?: () => string | undefined;
}

export function createAgentRuntimeContext(
  options: AgentRuntimeContextOptions,
): AgentRuntimeContext {
  const { settings } = options;
  const modelLimit =
    typeof options.modelContextLimit === 'function'
      ? options.modelContextLimit
      : () => options.modelContextLimit as number | undefined;
  return {
    settings,
    contextLimit: () => settings.get('context-limit') ?? modelLimit() ?? FALLBACK_CONTEXT_LIMIT,
    config: {
      getWorkspaceRoot: () => options.workspaceRoot,
      getTranscriptPath: () => options.transcriptPath?.(),
    },
  };
}
