/** Builds an AgentRuntimeContext over the live settings: every read sees the current values. */
import {
  getCompressionStrategy,
  parseCompressionStrategyName,
} from '../core/compression/compressionStrategyFactory.js';
import type { SettingsReader } from '../settings/SettingsReader.js';
import type { SettingsService } from '../settings/SettingsService.js';
import type { AgentRuntimeContext } from './AgentRuntimeContext.js';
import { ephemeralAccessorsOver } from './ephemeralAccessors.js';

/** Used when neither the `context-limit` setting nor the model table knows the window. */
export const FALLBACK_CONTEXT_LIMIT = 128_000;

export interface AgentRuntimeContextOptions {
  readonly settings: SettingsService;
  readonly workspaceRoot: string;
  /** The model's known context window (from the provider's model table); may change live. */
  readonly modelContextLimit?: number | (() => number | undefined);
  readonly transcriptPath?: () => string | undefined;
  /**
   * The threshold `ephemerals.compressionThreshold()` falls back to when `compression-threshold`
   * is unset. Default: the `trigger.defaultThreshold` of the strategy `compression.strategy` names.
   */
  readonly defaultCompressionThreshold?: () => number;
}

export function createAgentRuntimeContext(
  options: AgentRuntimeContextOptions,
): AgentRuntimeContext {
  const { settings } = options;
  const modelLimit =
    typeof options.modelContextLimit === 'function'
      ? options.modelContextLimit
      : () => options.modelContextLimit as number | undefined;
  const defaultThreshold =
    options.defaultCompressionThreshold ?? (() => namedStrategyThreshold(settings));
  const contextLimit = () =>
    settings.get('context-limit') ?? modelLimit() ?? FALLBACK_CONTEXT_LIMIT;
  return {
    settings,
    ephemerals: ephemeralAccessorsOver(settings, {
      compressionThreshold: () => settings.get('compression-threshold') ?? defaultThreshold(),
      contextLimit,
    }),
    contextLimit,
    config: {
      getWorkspaceRoot: () => options.workspaceRoot,
      getTranscriptPath: () => options.transcriptPath?.(),
    },
  };
}

/** The default threshold of the strategy the settings select. */
function namedStrategyThreshold(settings: SettingsReader): number {
  const name = parseCompressionStrategyName(settings.get('compression.strategy'));
  return getCompressionStrategy(name).trigger.defaultThreshold;
}
