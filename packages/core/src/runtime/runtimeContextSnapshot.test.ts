import { describe, expect, it } from 'vitest';
import { SettingsService } from '../settings/SettingsService.js';
import { SETTING_KEYS } from '../settings/settingsRegistry.js';
import { createAgentRuntimeContext } from './createAgentRuntimeContext.js';
import { runtimeContextSnapshot } from './runtimeContextSnapshot.js';

describe('runtimeContextSnapshot', () => {
  it('#32.5 reads every setting, the limit and the threshold once: later changes do not show', () => {
    const settings = new SettingsService({ session: { 'context-limit': 50_000 } });
    const runtime = createAgentRuntimeContext({ settings, workspaceRoot: '/ws' });
    const snapshot = runtimeContextSnapshot(runtime);
    for (const key of SETTING_KEYS) expect(snapshot.settings.get(key), key).toBe(settings.get(key));
    settings.setFromString('compression.preserveThreshold', '0.1');
    settings.setFromString('compression-threshold', '0.5');
    settings.setFromString('context-limit', '9000');
    expect(snapshot.ephemerals.preserveThreshold()).toBe(0.4);
    expect(snapshot.settings.get('compression.preserveThreshold')).toBe(0.4);
    expect(snapshot.ephemerals.compressionThreshold()).toBe(0.85);
    expect(snapshot.ephemerals.contextLimit()).toBe(50_000);
    expect(snapshot.contextLimit()).toBe(50_000);
    expect(snapshot.config.getWorkspaceRoot()).toBe('/ws');
  });

  it('#32.5 takes the threshold of the strategy about to run when given', () => {
    const runtime = createAgentRuntimeContext({
      settings: new SettingsService(),
      workspaceRoot: '/ws',
    });
    expect(
      runtimeContextSnapshot(runtime, {
        compressionThreshold: 1,
      }).ephemerals.compressionThreshold(),
    ).toBe(1);
  });
});
