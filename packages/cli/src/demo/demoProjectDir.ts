/** Where the sample project ships: `packages/cli/demo-project`, two levels above this module in src and in dist. */
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The absolute path of the sample project the demo copies. */
export const DEMO_PROJECT_DIR: string = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '..',
  '..',
  'demo-project',
);
