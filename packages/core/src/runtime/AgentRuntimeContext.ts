/**
 * What the agent's components may know about the running session: typed accessors over the live
 * settings (`ephemerals`) and a few facts about the session (`config`).
 */
import type { PointerStyle } from '../core/compression/recallPointers.js';
import type { CompressionStrategyName } from '../core/compression/compressionStrategyName.js';
import type { DensityScheduleMode } from '../scheduler/densitySchedule.js';
import type { SettingsService } from '../settings/SettingsService.js';

export interface EphemeralAccessors {
  compressionStrategy(): CompressionStrategyName;
  /** The threshold set by the session or profile, or `undefined` (use the strategy's default). */
  compressionThreshold(): number | undefined;
  /** The profile whose provider writes LLM summaries, if one is configured. */
  compressionProfile(): string | undefined;
  /** The effective context window in tokens: the setting, else the model's known window. */
  contextLimit(): number;
  preserveThreshold(): number;
  topPreserveThreshold(): number;
  densityReadWritePruning(): boolean;
  densityFileDedupe(): boolean;
  densityRecencyPruning(): boolean;
  densityRecencyRetention(): number;
  densityShellFileOps(): boolean;
  densityCacheAware(): boolean;
  /** `batched` (default) or `immediate` (every density edit at once, the spec's). */
  densitySchedule(): DensityScheduleMode;
  /** Identical re-reads of a file still in context get a short reply. */
  densityUnchangedReads(): boolean;
  densityCachePaybackCalls(): number;
  densityCacheRiskAllowance(): number;
  densityCompressHeadroom(): number;
  /** `compression.density.pointerStyle`; absent in older fakes means `spec`. */
  densityPointerStyle?(): PointerStyle;
  /**
   * `compression.toolOutputCap`: the largest fraction of the context window one tool output may
   * take; absent in older fakes means the setting's default.
   */
  toolOutputCap?(): number;
  /** `compression.artifactTrail`; absent in older fakes means off. */
  artifactTrail?(): boolean;
}

export interface RuntimeConfig {
  getWorkspaceRoot(): string;
  /** Where this session is recorded in full, when it is. */
  getTranscriptPath(): string | undefined;
}

export interface AgentRuntimeContext {
  readonly ephemerals: EphemeralAccessors;
  readonly config: RuntimeConfig;
  readonly settings: SettingsService;
}

/** Who is talking to whom in this session. */
export interface AgentRuntimeState {
  readonly sessionId: string;
  readonly provider: string;
  readonly model: string;
}
