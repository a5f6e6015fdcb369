/**
 * The runtime as one compression sees it: every registry setting, the context limit and the
 * compression threshold read once, when the compression starts. A strategy's reads through
 * `settings.get`, `ephemerals.*` and a `CompressionSettings` built from the snapshot's `settings`
 * therefore agree for the whole compression, whatever changes the live settings meanwhile.
 */
import type { SettingsReader } from '../settings/SettingsReader.js';
import { SETTING_KEYS, type SettingKey, type SettingRead } from '../settings/settingsRegistry.js';
import type { RuntimeContextReader } from './AgentRuntimeContext.js';
import { ephemeralAccessorsOver } from './ephemeralAccessors.js';

export interface RuntimeContextSnapshotOptions {
  /**
   * The threshold of the strategy about to run (the orchestrator may resolve strategies the
   * settings do not name). Default: `runtime.ephemerals.compressionThreshold()`.
   */
  readonly compressionThreshold?: number;
}

export function runtimeContextSnapshot(
  runtime: RuntimeContextReader,
  options: RuntimeContextSnapshotOptions = {},
): RuntimeContextReader {
  const values = new Map<SettingKey, unknown>(
    SETTING_KEYS.map((key): [SettingKey, unknown] => [key, runtime.settings.get(key)]),
  );
  const settings: SettingsReader = Object.freeze({
    get: <K extends SettingKey>(key: K) => values.get(key) as SettingRead<K>,
  });
  const limit = runtime.contextLimit();
  const threshold = options.compressionThreshold ?? runtime.ephemerals.compressionThreshold();
  return Object.freeze({
    settings,
    ephemerals: ephemeralAccessorsOver(settings, {
      compressionThreshold: () => threshold,
      contextLimit: () => limit,
    }),
    contextLimit: () => limit,
    config: runtime.config,
  });
}
