import { describe, expect, it } from 'vitest';
import { COMPRESSION_SETTINGS } from '../settings/compressionSettings.js';
import { SettingsService } from '../settings/SettingsService.js';
import { createAgentRuntimeContext, FALLBACK_CONTEXT_LIMIT } from './createAgentRuntimeContext.js';
import type { SettingSpec } from '../settings/settingSpec.js';
import type { SettingKey } from '../settings/settingsRegistry.js';

describe('createAgentRuntimeContext', () => {
  it('#23.5 every compression setting in the registry reads through the runtime, default and set alike', () => {
    const service = new SettingsService();
    const { settings } = createAgentRuntimeContext({ settings: service, workspaceRoot: '/w' });
    for (const spec of COMPRESSION_SETTINGS as readonly SettingSpec[]) {
      const key = spec.key as SettingKey;
      expect(settings.get(key), spec.key).toBe(spec.default);
      // A value other than the default, typed as a person would with /set.
      const typed =
        spec.type === 'boolean'
          ? String(!spec.default)
          : spec.type === 'enum'
            ? (spec.enumValues.find((value) => value !== spec.default) ?? spec.default)
            : spec.type === 'string'
              ? 'mine'
              : String(spec.range?.max ?? (spec.range?.typedMin ?? 1) + 1000);
      const parsed = service.setFromString(spec.key, typed);
      expect(parsed.ok, `${spec.key} = ${typed}`).toBe(true);
      expect(String(settings.get(key)), spec.key).toBe(typed);
    }
  });

  it('REQ-HD-009.5 exposes the density settings with their defaults', () => {
    const { settings } = createAgentRuntimeContext({
      settings: new SettingsService(),
      workspaceRoot: '/w',
    });
    expect(settings.get('compression.density.readWritePruning')).toBe(true);
    expect(settings.get('compression.density.fileDedupe')).toBe(true);
    expect(settings.get('compression.density.recencyPruning')).toBe(false);
    expect(settings.get('compression.density.recencyRetention')).toBe(3);
    expect(settings.get('compression.density.compressHeadroom')).toBe(0.6);
    expect(settings.get('compression.density.shellFileOps')).toBe(true);
    expect(settings.get('compression.density.unchangedReads')).toBe(true);
    expect(settings.get('compression.density.schedule')).toBe('batched');
    expect(settings.get('compression.density.pointerStyle')).toBe('recall');
    expect(settings.get('compression.preserveThreshold')).toBe(0.4);
    expect(settings.get('compression.topPreserveThreshold')).toBe(0.2);
  });

  it('reads see live settings on every call', () => {
    const settings = new SettingsService();
    const runtime = createAgentRuntimeContext({ settings, workspaceRoot: '/w' });
    settings.setFromString('compression.density.recencyRetention', '7');
    settings.setFromString('compression.strategy', 'high-density');
    expect(runtime.settings.get('compression.density.recencyRetention')).toBe(7);
    expect(runtime.settings.get('compression.strategy')).toBe('high-density');
  });

  it('REQ-HD-001.10 compression-threshold is undefined unless the session or profile sets it', () => {
    const settings = new SettingsService({ profile: { 'compression-threshold': 0.7 } });
    const runtime = createAgentRuntimeContext({ settings, workspaceRoot: '/w' });
    expect(runtime.settings.get('compression-threshold')).toBe(0.7);
    settings.setFromString('compression-threshold', '0.9');
    expect(runtime.settings.get('compression-threshold')).toBe(0.9);
    const bare = createAgentRuntimeContext({
      settings: new SettingsService(),
      workspaceRoot: '/w',
    });
    expect(bare.settings.get('compression-threshold')).toBeUndefined();
  });

  it('contextLimit: the setting, else the model window, else the fallback', () => {
    const settings = new SettingsService();
    const withModel = createAgentRuntimeContext({
      settings,
      workspaceRoot: '/w',
      modelContextLimit: 200_000,
    });
    expect(withModel.contextLimit()).toBe(200_000);
    settings.setFromString('context-limit', '32000');
    expect(withModel.contextLimit()).toBe(32_000);
    const bare = createAgentRuntimeContext({
      settings: new SettingsService(),
      workspaceRoot: '/w',
    });
    expect(bare.contextLimit()).toBe(FALLBACK_CONTEXT_LIMIT);
  });

  it('config reports the workspace root and transcript path', () => {
    const ctx = createAgentRuntimeContext({
      settings: new SettingsService(),
      workspaceRoot: '/work/space',
      transcriptPath: () => '/state/s.jsonl',
    });
    expect(ctx.config.getWorkspaceRoot()).toBe('/work/space');
    expect(ctx.config.getTranscriptPath()).toBe('/state/s.jsonl');
  });
});
