/**
 * The spec's typed accessors over the settings (`AgentRuntimeContext.ephemerals`, REQ-HD-009.5):
 * one per registry key, named in one table and generated from it, so an accessor returns exactly
 * what the registry says — its type, its default, the value `/set` or a profile gave it. Two are
 * computed because their registry entry has no default: `compressionThreshold()` and
 * `contextLimit()` fall back past the settings (the strategy's default, the model's window).
 */
import type { SettingsReader } from '../settings/SettingsReader.js';
import type { SettingKey, SettingRead } from '../settings/settingsRegistry.js';

/** Accessor name → the registry key it reads. Every registry key is here or in `COMPUTED_ACCESSOR_KEYS`. */
export const EPHEMERAL_ACCESSOR_KEYS = {
  compressionStrategy: 'compression.strategy',
  compressionProfile: 'compression.profile',
  preserveThreshold: 'compression.preserveThreshold',
  topPreserveThreshold: 'compression.topPreserveThreshold',
  densityReadWritePruning: 'compression.density.readWritePruning',
  densityFileDedupe: 'compression.density.fileDedupe',
  densityRecencyPruning: 'compression.density.recencyPruning',
  densityRecencyRetention: 'compression.density.recencyRetention',
  densityShellFileOps: 'compression.density.shellFileOps',
  densityUnchangedReads: 'compression.density.unchangedReads',
  densitySchedule: 'compression.density.schedule',
  densityCacheAware: 'compression.density.cacheAware',
  densityCachePaybackCalls: 'compression.density.cachePaybackCalls',
  densityCacheRiskAllowance: 'compression.density.cacheRiskAllowance',
  densityCompressHeadroom: 'compression.density.compressHeadroom',
  densityPointerStyle: 'compression.density.pointerStyle',
  densityWorkingBudget: 'compression.density.workingBudget',
  toolOutputCap: 'compression.toolOutputCap',
  artifactTrail: 'compression.artifactTrail',
} as const satisfies Record<string, SettingKey>;

/** The accessors whose value is the setting when set, else a fallback outside the registry. */
export const COMPUTED_ACCESSOR_KEYS = {
  compressionThreshold: 'compression-threshold',
  contextLimit: 'context-limit',
} as const satisfies Record<string, SettingKey>;

type ReadAccessorName = keyof typeof EPHEMERAL_ACCESSOR_KEYS;
type ComputedAccessorName = keyof typeof COMPUTED_ACCESSOR_KEYS;

/** Registry keys with no accessor; `never` is enforced below, so a new key needs a name here. */
export type KeysWithoutAccessor = Exclude<
  SettingKey,
  | (typeof EPHEMERAL_ACCESSOR_KEYS)[ReadAccessorName]
  | (typeof COMPUTED_ACCESSOR_KEYS)[ComputedAccessorName]
>;

/** Fails to compile when `KeysWithoutAccessor` is not empty. */
type RequireEmpty<T extends never> = T;
export type EveryRegistryKeyHasAnAccessor = RequireEmpty<KeysWithoutAccessor>;

/** What the computed accessors fall back to. */
export interface ComputedAccessors {
  /**
   * `compression-threshold` (session, then profile), else the strategy's `trigger.defaultThreshold`
   * (REQ-HD-001.10): the fraction of the context limit at which compression runs.
   */
  compressionThreshold(): number;
  /** `context-limit`, else the model's known window, else the fallback window. In tokens. */
  contextLimit(): number;
}

/** The accessors: each reads the settings on every call, typed by its registry entry. */
export type EphemeralAccessors = {
  readonly [N in ReadAccessorName]: () => SettingRead<(typeof EPHEMERAL_ACCESSOR_KEYS)[N]>;
} & {
  readonly [N in ComputedAccessorName]: ComputedAccessors[N];
};

/**
 * Accessors over `settings`: `settings.get(key)` for each entry of `EPHEMERAL_ACCESSOR_KEYS`, and
 * the computed pair as given. Reads are live when `settings` is.
 */
export function ephemeralAccessorsOver(
  settings: SettingsReader,
  computed: ComputedAccessors,
): EphemeralAccessors {
  const read: Partial<Record<ReadAccessorName, () => unknown>> = {};
  for (const [name, key] of Object.entries(EPHEMERAL_ACCESSOR_KEYS)) {
    read[name as ReadAccessorName] = () => settings.get(key);
  }
  return Object.freeze({
    ...(read as EphemeralAccessors),
    compressionThreshold: () => computed.compressionThreshold(),
    contextLimit: () => computed.contextLimit(),
  });
}
