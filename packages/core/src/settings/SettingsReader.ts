/**
 * The one typed read of settings: any registry key, typed by its registry entry. Who holds a
 * reader can read settings but not change them; a new registry key is readable with no code here.
 */
import type { SettingKey, SettingRead } from './settingsRegistry.js';

export interface SettingsReader {
  /** The effective value; never `undefined` for a key whose registry entry has a default. */
  get<K extends SettingKey>(key: K): SettingRead<K>;
}
