import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SettingsService } from '../settings/SettingsService.js';
import { getDensePaths } from '../utils/paths.js';
import { ProfileError, ProfileManager } from './ProfileManager.js';

let dir: string;
let manager: ProfileManager;

beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'dense-profiles-'));
  manager = new ProfileManager(path.join(dir, 'profiles'));
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function expectProfileError(promise: Promise<unknown>, code: string, ...fragments: string[]) {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ProfileError);
  expect((error as ProfileError).code).toBe(code);
  for (const fragment of fragments) expect((error as ProfileError).message).toContain(fragment);
}

describe('ProfileManager', () => {
  it('round-trips the settings a session changed, plus provider and model', async () => {
    const settings = new SettingsService();
    settings.setFromString('compression.strategy', 'middle-out');
    settings.setFromString('compression.density.recencyPruning', 'true');
    await manager.save('t', {
      provider: 'anthropic',
      model: 'claude-x',
      settings: settings.snapshotForProfile(),
    });
    const loaded = await manager.load('t');
    expect(loaded).toEqual({
      provider: 'anthropic',
      model: 'claude-x',
      settings: {
        'compression.strategy': 'middle-out',
        'compression.density.recencyPruning': true,
      },
    });
    const fresh = new SettingsService();
    fresh.replaceProfileLayer(loaded.settings);
    expect(fresh.get('compression.strategy')).toBe('middle-out');
    expect(fresh.getSource('compression.strategy')).toBe('profile');
  });

  it('lists and deletes profiles', async () => {
    expect(await manager.list()).toEqual([]);
    await manager.save('b', { settings: {} });
    await manager.save('a', { settings: {} });
    expect(await manager.list()).toEqual(['a', 'b']);
    await manager.delete('a');
    expect(await manager.list()).toEqual(['b']);
    await expectProfileError(manager.delete('a'), 'PROFILE_NOT_FOUND', "'a'");
  });

  it('writes atomically: no temp files are left behind and the file is complete JSON', async () => {
    await manager.save('p', { settings: { 'context-limit': 1000 } });
    const files = await readdir(path.join(dir, 'profiles'));
    expect(files).toEqual(['p.json']);
    expect(JSON.parse(await readFile(path.join(dir, 'profiles', 'p.json'), 'utf8'))).toMatchObject({
      version: 1,
    });
  });

  it('refuses unsafe names', async () => {
    await expectProfileError(manager.save('../evil', { settings: {} }), 'PROFILE_INVALID_NAME');
    await expectProfileError(manager.load('.hidden'), 'PROFILE_INVALID_NAME');
  });

  it('a missing profile is a clear error', async () => {
    await expectProfileError(manager.load('nope'), 'PROFILE_NOT_FOUND', "'nope'");
  });

  describe('corrupt profiles fail to load with the file, key and problem, and nothing is overwritten', () => {
    async function writeRaw(name: string, text: string): Promise<string> {
      await manager.save(name, { settings: {} });
      const file = manager.fileFor(name);
      await writeFile(file, text);
      return file;
    }

    it('invalid JSON', async () => {
      const file = await writeRaw('broken', '{ "version": 1, ');
      await expectProfileError(manager.load('broken'), 'PROFILE_INVALID_JSON', file);
      expect(await readFile(file, 'utf8')).toBe('{ "version": 1, ');
    });

    it('an unknown key', async () => {
      const text = JSON.stringify({
        version: 1,
        settings: { 'compression.density.recencyRetension': 2 },
      });
      const file = await writeRaw('typo', text);
      await expectProfileError(
        manager.load('typo'),
        'PROFILE_INVALID_SETTING',
        file,
        'compression.density.recencyRetension',
        'compression.density.recencyRetention',
      );
      expect(await readFile(file, 'utf8')).toBe(text);
    });

    it('#12.9 a `__proto__` settings key is reported, not silently dropped', async () => {
      const text = '{"version":1,"settings":{"__proto__":{"context-limit":5}}}';
      const file = await writeRaw('proto', text);
      await expectProfileError(manager.load('proto'), 'PROFILE_INVALID_SETTING', file, '__proto__');
      expect(await readFile(file, 'utf8')).toBe(text);
    });

    it('a bad value', async () => {
      const file = await writeRaw(
        'neg',
        JSON.stringify({ version: 1, settings: { 'compression.density.recencyRetention': -1 } }),
      );
      await expectProfileError(
        manager.load('neg'),
        'PROFILE_INVALID_SETTING',
        file,
        'recencyRetention',
        '≥ 1',
      );
    });

    it('a wrong shape', async () => {
      const file = await writeRaw(
        'shape',
        JSON.stringify({ version: 1, settings: [], extra: true }),
      );
      await expectProfileError(manager.load('shape'), 'PROFILE_INVALID_FORMAT', file);
    });

    it('the session keeps its settings when a broken profile is loaded', async () => {
      await writeRaw(
        'bad',
        JSON.stringify({ version: 1, settings: { 'compression-threshold': 2 } }),
      );
      const settings = new SettingsService({ profile: { 'compression.strategy': 'one-shot' } });
      await expect(
        manager.load('bad').then((p) => settings.replaceProfileLayer(p.settings)),
      ).rejects.toThrow(ProfileError);
      expect(settings.get('compression.strategy')).toBe('one-shot');
    });
  });

  it('refuses to save invalid settings, naming the key', async () => {
    await expectProfileError(
      manager.save('x', { settings: { 'compression-threshold': 5 } }),
      'PROFILE_INVALID_SETTING',
      'compression-threshold',
    );
    expect(await manager.list()).toEqual([]);
  });
});

describe('getDensePaths', () => {
  it('puts everything under DENSE_HOME when it is set', () => {
    const paths = getDensePaths({ DENSE_HOME: '/tmp/dense-home' });
    expect(paths.profilesDir).toBe(path.join('/tmp/dense-home', 'profiles'));
    expect(paths.sessionsDir).toBe(path.join('/tmp/dense-home', 'sessions'));
    expect(paths.promptsDir).toBe(path.join('/tmp/dense-home', 'prompts'));
    expect(paths.recallDir).toBe(path.join('/tmp/dense-home', 'recall'));
  });

  it('uses the platform directories otherwise', () => {
    const paths = getDensePaths({});
    expect(paths.profilesDir).toContain('dense');
  });
});
