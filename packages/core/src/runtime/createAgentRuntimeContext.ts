/** Builds an AgentRuntimeContext whose accessors read the live settings on every call. */
import {
  getSettingDefault,
  type SettingKey,
  type SettingValue,
} from '../settings/settingsRegistry.js';
import type { SettingsService } from '../settings/SettingsService.js';
import type { AgentRuntimeContext, EphemeralAccessors } from './AgentRuntimeContext.js';

/** Used when neither the `context-limit` setting nor the model table knows the window. */
export const FALLBACK_CONTEXT_LIMIT = 128_000;

export interface AgentRuntimeContextOptions {
  readonly settings: SettingsService;
  readonly workspaceRoot: string;
  /** The model's known context window (from the provider's model table). */
  readonly modelContextLimit?: number;
  readonly transcriptPath?: () => string | undefined;
}

function required<K extends SettingKey>(settings: SettingsService, key: K): SettingValue<K> {
  const value = settings.get(key) ?? getSettingDefault(key);
  if (value === undefined) throw new Error(`Setting '${key}' has no value and no default.`);
  return value;
}

export function createAgentRuntimeContext(
  options: AgentRuntimeContextOptions,
): AgentRuntimeContext {
  const { settings } = options;
  const ephemerals: EphemeralAccessors = {
    compressionStrategy: () => required(settings, 'compression.strategy'),
    compressionThreshold: () => settings.get('compression-threshold'),
    compressionProfile: () => settings.get('compression.profile'),
    contextLimit: () =>
      settings.get('context-limit') ?? options.modelContextLimit ?? FALLBACK_CONTEXT_LIMIT,
    preserveThreshold: () => required(settings, 'compression.preserveThreshold'),
    topPreserveThreshold: () => required(settings, 'compression.topPreserveThreshold'),
    densityReadWritePruning: () => required(settings, 'compression.density.readWritePruning'),
    densityFileDedupe: () => required(settings, 'compression.density.fileDedupe'),
    densityRecencyPruning: () => required(settings, 'compression.density.recencyPruning'),
    densityRecencyRetention: () => required(settings, 'compression.density.recencyRetention'),
    densityCompressHeadroom: () => required(settings, 'compression.density.compressHeadroom'),
  };
  return {
    ephemerals,
    settings,
    config: {
      getWorkspaceRoot: () => options.workspaceRoot,
      getTranscriptPath: () => options.transcriptPath?.(),
    },
  };
}
