/** Builds an AgentRuntimeContext whose accessors read the live settings on every call. */
import type { SettingsService } from '../settings/SettingsService.js';
import type { AgentRuntimeContext, EphemeralAccessors } from './AgentRuntimeContext.js';

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
  const ephemerals: EphemeralAccessors = {
    compressionStrategy: () => settings.getDefaulted('compression.strategy'),
    compressionThreshold: () => settings.get('compression-threshold'),
    compressionProfile: () => settings.get('compression.profile'),
    contextLimit: () => settings.get('context-limit') ?? modelLimit() ?? FALLBACK_CONTEXT_LIMIT,
    preserveThreshold: () => settings.getDefaulted('compression.preserveThreshold'),
    topPreserveThreshold: () => settings.getDefaulted('compression.topPreserveThreshold'),
    densityReadWritePruning: () => settings.getDefaulted('compression.density.readWritePruning'),
    densityFileDedupe: () => settings.getDefaulted('compression.density.fileDedupe'),
    densityRecencyPruning: () => settings.getDefaulted('compression.density.recencyPruning'),
    densityRecencyRetention: () => settings.getDefaulted('compression.density.recencyRetention'),
    densityShellFileOps: () => settings.getDefaulted('compression.density.shellFileOps'),
    densityCacheAware: () => settings.getDefaulted('compression.density.cacheAware'),
    densityUnchangedReads: () => settings.getDefaulted('compression.density.unchangedReads'),
    densitySchedule: () => settings.getDefaulted('compression.density.schedule'),
    densityCachePaybackCalls: () => settings.getDefaulted('compression.density.cachePaybackCalls'),
    densityCacheRiskAllowance: () =>
      settings.getDefaulted('compression.density.cacheRiskAllowance'),
    densityCompressHeadroom: () => settings.getDefaulted('compression.density.compressHeadroom'),
    densityPointerStyle: () => settings.getDefaulted('compression.density.pointerStyle'),
    artifactTrail: () => settings.getDefaulted('compression.artifactTrail'),
    toolOutputCap: () => settings.getDefaulted('compression.toolOutputCap'),
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
