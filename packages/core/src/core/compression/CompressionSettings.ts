/**
 * The settings a compression strategy reads, as one read-only snapshot taken from the live
 * settings when a compression (or the pricing of one) starts: strategies never see the runtime.
 */
import type { SettingsReader } from '../../settings/SettingsReader.js';
import type { SettingKey, SettingRead } from '../../settings/settingsRegistry.js';

/** The registry keys strategies read; each is in the snapshot with its registry type. */
export const STRATEGY_SETTING_KEYS = [
  'compression-threshold',
  'compression.profile',
  'compression.preserveThreshold',
  'compression.topPreserveThreshold',
  'compression.density.compressHeadroom',
  'compression.density.pointerStyle',
  'compression.density.shellFileOps',
  'compression.density.workingBudget',
  'compression.artifactTrail',
] as const satisfies readonly SettingKey[];

export type StrategySettingKey = (typeof STRATEGY_SETTING_KEYS)[number];

export type CompressionSettings = { readonly [K in StrategySettingKey]: SettingRead<K> } & {
  /** The effective context window in tokens (the setting, else the model's window). */
  readonly contextLimit: number;
};

/** A frozen snapshot of `STRATEGY_SETTING_KEYS` as `settings` has them now. */
export function compressionSettingsFrom(
  settings: SettingsReader,
  contextLimit: number,
): CompressionSettings {
  const values: Partial<Record<StrategySettingKey, unknown>> = {};
  for (const key of STRATEGY_SETTING_KEYS) values[key] = settings.get(key);
  return Object.freeze({ ...values, contextLimit }) as CompressionSettings;
}
