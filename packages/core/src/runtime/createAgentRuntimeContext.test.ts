import { describe, expect, it } from 'vitest';
import { SettingsService } from '../settings/SettingsService.js';
import { createAgentRuntimeContext, FALLBACK_CONTEXT_LIMIT } from './createAgentRuntimeContext.js';

describe('createAgentRuntimeContext', () => {
  it('REQ-HD-009.5 exposes the density accessors with their defaults', () => {
    const { ephemerals } = createAgentRuntimeContext({
      settings: new SettingsService(),
      workspaceRoot: '/w',
    });
    expect(ephemerals.densityReadWritePruning()).toBe(true);
    expect(ephemerals.densityFileDedupe()).toBe(true);
    expect(ephemerals.densityRecencyPruning()).toBe(false);
    expect(ephemerals.densityRecencyRetention()).toBe(3);
    expect(ephemerals.densityCompressHeadroom()).toBe(0.6);
    // Issue 14.4: on by default, as are unchanged reads and the batched schedule.
    expect(ephemerals.densityShellFileOps()).toBe(true);
    expect(ephemerals.densityUnchangedReads()).toBe(true);
    expect(ephemerals.densitySchedule()).toBe('batched');
    expect(ephemerals.preserveThreshold()).toBe(0.4);
    expect(ephemerals.topPreserveThreshold()).toBe(0.2);
  });

  it('accessors read live settings on every call', () => {
    const settings = new SettingsService();
    const { ephemerals } = createAgentRuntimeContext({ settings, workspaceRoot: '/w' });
    settings.setFromString('compression.density.recencyRetention', '7');
    settings.setFromString('compression.strategy', 'high-density');
    expect(ephemerals.densityRecencyRetention()).toBe(7);
    expect(ephemerals.compressionStrategy()).toBe('high-density');
  });

  it('REQ-HD-001.10 compressionThreshold is undefined unless the session or profile sets it', () => {
    const settings = new SettingsService({ profile: { 'compression-threshold': 0.7 } });
    const { ephemerals } = createAgentRuntimeContext({ settings, workspaceRoot: '/w' });
    expect(ephemerals.compressionThreshold()).toBe(0.7);
    settings.setFromString('compression-threshold', '0.9');
    expect(ephemerals.compressionThreshold()).toBe(0.9);
    const bare = createAgentRuntimeContext({
      settings: new SettingsService(),
      workspaceRoot: '/w',
    });
    expect(bare.ephemerals.compressionThreshold()).toBeUndefined();
  });

  it('contextLimit: the setting, else the model window, else the fallback', () => {
    const settings = new SettingsService();
    const withModel = createAgentRuntimeContext({
      settings,
      workspaceRoot: '/w',
      modelContextLimit: 200_000,
    });
    expect(withModel.ephemerals.contextLimit()).toBe(200_000);
    settings.setFromString('context-limit', '32000');
    expect(withModel.ephemerals.contextLimit()).toBe(32_000);
    const bare = createAgentRuntimeContext({
      settings: new SettingsService(),
      workspaceRoot: '/w',
    });
    expect(bare.ephemerals.contextLimit()).toBe(FALLBACK_CONTEXT_LIMIT);
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
