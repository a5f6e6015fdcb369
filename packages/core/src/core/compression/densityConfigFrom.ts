/** The density passes' config as the live settings have it now. */
import type { SettingsReader } from '../../settings/SettingsReader.js';
import { densityPassSwitches, passFlagsOf } from './densityPass.js';
import type { DensityConfig } from './types.js';

export function densityConfigFrom(settings: SettingsReader, workspaceRoot: string): DensityConfig {
  return {
    ...passFlagsOf(densityPassSwitches(settings)),
    recencyRetention: settings.get('compression.density.recencyRetention'),
    shellFileOps: settings.get('compression.density.shellFileOps'),
    pointerStyle: settings.get('compression.density.pointerStyle'),
    workspaceRoot,
  };
}
