import { describe, expect, it } from 'vitest';
import { densityConfigFrom } from './densityConfigFrom.js';
import { SettingsService } from '../../settings/SettingsService.js';

describe('densityConfigFrom', () => {
  it("#23.5 unset settings give the registry defaults, pointer style 'recall' included", () => {
    expect(densityConfigFrom(new SettingsService(), '/ws')).toEqual({
      readWritePruning: true,
      fileDedupe: true,
      recencyPruning: false,
      recencyRetention: 3,
      shellFileOps: true,
      pointerStyle: 'recall',
      workspaceRoot: '/ws',
    });
  });

  it('follows what the session sets', () => {
    const settings = new SettingsService({
      session: {
        'compression.density.recencyPruning': true,
        'compression.density.recencyRetention': 5,
        'compression.density.pointerStyle': 'spec',
      },
    });
    const config = densityConfigFrom(settings, '/ws');
    expect(config.recencyPruning).toBe(true);
    expect(config.recencyRetention).toBe(5);
    expect(config.pointerStyle).toBe('spec');
  });
});
