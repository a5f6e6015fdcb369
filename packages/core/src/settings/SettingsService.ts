/**
 * Live settings in three layers: registry defaults < the loaded profile < this session's `/set`.
 * Every value entering a layer is validated by the one parser; listeners hear each change.
 */
import { TypedEmitter } from '../utils/TypedEmitter.js';
import {
  parseSettingValue,
  validateSettingValue,
  type AnySettingValue,
  type SettingParseResult,
} from './parseSettingValue.js';
import {
  getSettingDefault,
  getSettingSpec,
  SETTING_KEYS,
  type EphemeralSettings,
  type SettingKey,
  type SettingRead,
  type SettingValue,
} from './settingsRegistry.js';
import type { SettingsReader } from './SettingsReader.js';

export type SettingSource = 'default' | 'profile' | 'session';

export interface SettingChange {
  readonly key: SettingKey;
  readonly value: AnySettingValue | undefined;
  readonly source: SettingSource;
}

export interface SettingsEvents {
  changed: SettingChange;
}

type Layer = Map<SettingKey, AnySettingValue | undefined>;

/** Every key given is validated, unknown ones included (a typo is an error, not a no-op). */
function layerFrom(values: EphemeralSettings): Layer {
  const layer: Layer = new Map();
  for (const [key, value] of Object.entries(values)) {
    const checked = validateSettingValue(key, value);
    if (!checked.ok) throw checked.error;
    layer.set(checked.key, checked.value);
  }
  return layer;
}

export class SettingsService implements SettingsReader {
  readonly events = new TypedEmitter<SettingsEvents>();
  private profileLayer: Layer = new Map();
  /** Session overrides; an `undefined` value means "unset here: use the default". */
  private readonly sessionLayer: Layer = new Map();

  constructor(
    initial: { readonly profile?: EphemeralSettings; readonly session?: EphemeralSettings } = {},
  ) {
    if (initial.profile) this.profileLayer = layerFrom(initial.profile);
    for (const [key, value] of layerFrom(initial.session ?? {})) this.sessionLayer.set(key, value);
  }

  /** The effective value: session, else profile, else the registry default. */
  get<K extends SettingKey>(key: K): SettingRead<K> {
    const value = this.sessionLayer.has(key)
      ? this.sessionLayer.get(key)
      : this.profileLayer.has(key)
        ? this.profileLayer.get(key)
        : undefined;
    return (value ?? getSettingDefault(key)) as SettingRead<K>;
  }

  getSource(key: SettingKey): SettingSource {
    if (this.sessionLayer.has(key)) {
      return this.sessionLayer.get(key) === undefined ? 'default' : 'session';
    }
    return this.profileLayer.has(key) ? 'profile' : 'default';
  }

  /** Sets a session value; throws `SettingError` for an invalid value, changing nothing. */
  set<K extends SettingKey>(key: K, value: SettingValue<K>): void {
    const checked = validateSettingValue(key, value);
    if (!checked.ok) throw checked.error;
    this.sessionLayer.set(key, checked.value);
    this.events.emit('changed', { key, value: checked.value, source: 'session' });
  }

  /** Parses and sets a value typed by a person; on error nothing changes. */
  setFromString(key: string, raw: string): SettingParseResult {
    const parsed = parseSettingValue(key, raw);
    if (parsed.ok) {
      this.sessionLayer.set(parsed.key, parsed.value);
      this.events.emit('changed', { key: parsed.key, value: parsed.value, source: 'session' });
    }
    return parsed;
  }

  /** Drops the session's and the profile's value for this session: the default applies. */
  unset(key: SettingKey): void {
    this.sessionLayer.set(key, undefined);
    this.events.emit('changed', { key, value: getSettingDefault(key), source: 'default' });
  }

  /** Installs a loaded profile's settings (validated; throws `SettingError` changing nothing). */
  replaceProfileLayer(values: EphemeralSettings): void {
    const next = layerFrom(values);
    this.profileLayer = next;
    this.sessionLayer.clear();
    for (const key of SETTING_KEYS) {
      this.events.emit('changed', { key, value: this.get(key), source: this.getSource(key) });
    }
  }

  /** Every persistable setting whose effective value differs from its default. */
  snapshotForProfile(): EphemeralSettings {
    const snapshot: Partial<Record<SettingKey, AnySettingValue>> = {};
    for (const key of SETTING_KEYS) {
      if (!getSettingSpec(key).persistToProfile) continue;
      const value = this.get(key);
      if (value !== undefined && value !== getSettingDefault(key)) snapshot[key] = value;
    }
    return snapshot as EphemeralSettings;
  }
}
