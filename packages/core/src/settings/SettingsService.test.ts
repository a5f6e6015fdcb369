import { describe, expect, it } from 'vitest';
import { SettingError } from './parseSettingValue.js';
import { SettingsService, type SettingChange } from './SettingsService.js';

describe('SettingsService', () => {
  it('layers defaults < profile < session and reports the source', () => {
    const settings = new SettingsService({ profile: { 'compression.strategy': 'one-shot' } });
    expect(settings.get('compression.density.fileDedupe')).toBe(true);
    expect(settings.getSource('compression.density.fileDedupe')).toBe('default');
    expect(settings.get('compression.strategy')).toBe('one-shot');
    expect(settings.getSource('compression.strategy')).toBe('profile');
    settings.set('compression.strategy', 'high-density');
    expect(settings.get('compression.strategy')).toBe('high-density');
    expect(settings.getSource('compression.strategy')).toBe('session');
  });

  it('unset makes the default apply for this session, even over a profile value', () => {
    const settings = new SettingsService({ profile: { 'context-limit': 32000 } });
    settings.unset('context-limit');
    expect(settings.get('context-limit')).toBeUndefined();
    expect(settings.getSource('context-limit')).toBe('default');
  });

  it('setFromString uses the one parser and changes nothing on error', () => {
    const settings = new SettingsService();
    const result = settings.setFromString('compression.density.recencyRetention', '0');
    expect(result.ok).toBe(false);
    expect(settings.get('compression.density.recencyRetention')).toBe(3);
    expect(settings.setFromString('compression.density.recencyRetention', '5').ok).toBe(true);
    expect(settings.get('compression.density.recencyRetention')).toBe(5);
  });

  it('set validates typed values too', () => {
    const settings = new SettingsService();
    expect(() => settings.set('compression-threshold', 3)).toThrow(SettingError);
    expect(settings.get('compression-threshold')).toBeUndefined();
  });

  it('emits a change event for each change', () => {
    const settings = new SettingsService();
    const changes: SettingChange[] = [];
    settings.events.on('changed', (change) => changes.push(change));
    settings.setFromString('compression.strategy', 'high-density');
    expect(changes).toEqual([
      { key: 'compression.strategy', value: 'high-density', source: 'session' },
    ]);
  });

  it('replaceProfileLayer validates first and keeps the old settings when the profile is bad', () => {
    const settings = new SettingsService({ profile: { 'compression.strategy': 'one-shot' } });
    expect(() =>
      settings.replaceProfileLayer({ 'compression.density.recencyRetention': 0 }),
    ).toThrow(SettingError);
    expect(settings.get('compression.strategy')).toBe('one-shot');
  });

  it('snapshotForProfile holds every persistable value that differs from its default', () => {
    const settings = new SettingsService({ profile: { 'context-limit': 64000 } });
    settings.setFromString('compression.strategy', 'middle-out');
    settings.setFromString('compression.density.fileDedupe', 'true');
    settings.setFromString('compression.density.recencyPruning', 'true');
    expect(settings.snapshotForProfile()).toEqual({
      'context-limit': 64000,
      'compression.strategy': 'middle-out',
      'compression.density.recencyPruning': true,
    });
  });

  it('#12.9 an unknown key given in code is a SettingError, not silently ignored', () => {
    expect(
      () => new SettingsService({ session: { 'context-limt': 5000 } as Record<string, unknown> }),
    ).toThrow(SettingError);
    expect(
      () =>
        new SettingsService({
          profile: { 'compression.strategy': 'middle-out', bogus: 1 } as Record<string, unknown>,
        }),
    ).toThrow(/Unknown setting 'bogus'/);
  });
});
