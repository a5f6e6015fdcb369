/**
 * The one declarative registry of settings. Types, help text, validation and profile persistence
 * all come from here; each domain contributes its entries from its own module.
 */
import { COMPRESSION_SETTINGS } from './compressionSettings.js';
import type { SettingSpec, SpecValue } from './settingSpec.js';

export const SETTINGS_REGISTRY = [
  ...COMPRESSION_SETTINGS,
] as const satisfies readonly SettingSpec[];

type RegistryEntry = (typeof SETTINGS_REGISTRY)[number];

export type SettingKey = RegistryEntry['key'];

export type SettingValue<K extends SettingKey> = SpecValue<Extract<RegistryEntry, { key: K }>>;

/** Keys whose registry entry has a default: they always have a value. */
export type DefaultedSettingKey = Extract<RegistryEntry, { default: unknown }>['key'];

/** What reading a key yields: a key with a registry default always has a value. */
export type SettingRead<K extends SettingKey> = K extends DefaultedSettingKey
  ? SettingValue<K>
  : SettingValue<K> | undefined;

/** Settings as a sparse record: what a layer (profile, session) sets. */
export type EphemeralSettings = { readonly [K in SettingKey]?: SettingValue<K> };

const SPECS_BY_KEY: ReadonlyMap<string, SettingSpec> = new Map(
  SETTINGS_REGISTRY.map((spec): [string, SettingSpec] => [spec.key, spec]),
);

export const SETTING_KEYS: readonly SettingKey[] = SETTINGS_REGISTRY.map((spec) => spec.key);

export function isSettingKey(key: string): key is SettingKey {
  return SPECS_BY_KEY.has(key);
}

export function getSettingSpec(key: SettingKey): SettingSpec<SettingKey> {
  return SPECS_BY_KEY.get(key) as SettingSpec<SettingKey>;
}

/** The registry default, or `undefined` for settings that are unset until set. */
export function getSettingDefault<K extends SettingKey>(key: K): SettingValue<K> | undefined {
  return getSettingSpec(key).default as SettingValue<K> | undefined;
}
