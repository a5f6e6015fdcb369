/**
 * The density passes by one name each: `readWrite` (stale reads pruned once the file is written),
 * `dedup` (stale `@` inclusions cut), `recency` (old tool results replaced by a pointer). Switches,
 * counts and tokens per pass are all `Record<DensityPass, …>`, and the mappings from the persisted
 * setting keys and from the spec's `DensityConfig` fields to the passes are written here only.
 */
import type { SettingsReader } from '../../settings/SettingsReader.js';

export const DENSITY_PASSES = ['readWrite', 'dedup', 'recency'] as const;

export type DensityPass = (typeof DENSITY_PASSES)[number];

/** Which passes run. */
export type DensityPassSwitches = Readonly<Record<DensityPass, boolean>>;

/**
 * A number per pass: what a result pruned (read→write: stale read calls, one per call/response
 * pair; dedup: inclusion spans cut; recency: tool responses replaced), or the tokens it freed.
 */
export type DensityPassCounts = Readonly<Record<DensityPass, number>>;

export const ZERO_DENSITY_PASS_COUNTS: DensityPassCounts = { readWrite: 0, dedup: 0, recency: 0 };

/** The setting that switches each pass (the keys are persisted in profiles and stay as they are). */
export const DENSITY_PASS_SETTING = {
  readWrite: 'compression.density.readWritePruning',
  dedup: 'compression.density.fileDedupe',
  recency: 'compression.density.recencyPruning',
} as const satisfies Record<DensityPass, string>;

/** The spec's `DensityConfig` field (REQ-HD-001.9) that switches each pass. */
export const DENSITY_PASS_CONFIG_FIELD = {
  readWrite: 'readWritePruning',
  dedup: 'fileDedupe',
  recency: 'recencyPruning',
} as const satisfies Record<DensityPass, string>;

/** The pass switches of a `DensityConfig`, by their spec names. */
export type DensityPassFlags = {
  readonly [P in DensityPass as (typeof DENSITY_PASS_CONFIG_FIELD)[P]]: boolean;
};

/** Which passes a config switches on. */
export function passSwitchesOf(config: DensityPassFlags): DensityPassSwitches {
  return {
    readWrite: config[DENSITY_PASS_CONFIG_FIELD.readWrite],
    dedup: config[DENSITY_PASS_CONFIG_FIELD.dedup],
    recency: config[DENSITY_PASS_CONFIG_FIELD.recency],
  };
}

/** The config fields that switch exactly `switches` on. */
export function passFlagsOf(switches: DensityPassSwitches): DensityPassFlags {
  return {
    [DENSITY_PASS_CONFIG_FIELD.readWrite]: switches.readWrite,
    [DENSITY_PASS_CONFIG_FIELD.dedup]: switches.dedup,
    [DENSITY_PASS_CONFIG_FIELD.recency]: switches.recency,
  };
}

/** The passes switched on by the session's settings. */
export function densityPassSwitches(settings: SettingsReader): DensityPassSwitches {
  return {
    readWrite: settings.get(DENSITY_PASS_SETTING.readWrite),
    dedup: settings.get(DENSITY_PASS_SETTING.dedup),
    recency: settings.get(DENSITY_PASS_SETTING.recency),
  };
}

/** `a + b`, pass by pass. */
export function addDensityPassCounts(
  a: DensityPassCounts,
  b: DensityPassCounts,
): DensityPassCounts {
  return {
    readWrite: a.readWrite + b.readWrite,
    dedup: a.dedup + b.dedup,
    recency: a.recency + b.recency,
  };
}

/** The sum over all passes. */
export function totalOfPasses(counts: DensityPassCounts): number {
  return counts.readWrite + counts.dedup + counts.recency;
}
