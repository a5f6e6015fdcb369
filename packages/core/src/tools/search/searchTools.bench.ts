/** How long the walking tools and path resolution take on a mid-sized workspace (5,000 files). */
import { mkdir, mkdtemp, realpath, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { bench, describe } from 'vitest';
import { toolCallBlock } from '../../services/history/IContent.js';
import { createDefaultToolRegistry, createToolContext } from '../createDefaultToolRegistry.js';
import { resolveWorkspacePath } from '../workspace/resolveWorkspacePath.js';

const root = await realpath(await mkdtemp(path.join(os.tmpdir(), 'dense-bench-tools-')));
for (let d = 0; d < 50; d++) {
  const dir = path.join(root, 'src', `pkg${d}`, 'lib');
  await mkdir(dir, { recursive: true });
  for (let f = 0; f < 100; f++) {
    const body = Array.from(
      { length: 40 },
      (_, i) => `export const v${i} = ${d * f + i}; // line ${i}`,
    );
    if (f % 10 === 0) body.push('// TODO: needle');
    await writeFile(path.join(dir, `file${f}.${f % 2 === 0 ? 'ts' : 'md'}`), body.join('\n'));
  }
}
const registry = createDefaultToolRegistry();
const context = createToolContext({ workspaceRoot: root });
const call = (name: string, parameters: unknown) =>
  registry.execute(toolCallBlock('b', name, parameters), context);

describe('walking tools over 5,000 files of ~1.5 KB (half .ts; every 10th contains "needle")', () => {
  bench('glob **/*.ts', async () => {
    await call('glob', { pattern: '**/*.ts' });
  });
  bench('grep needle (500 matches)', async () => {
    await call('grep', { pattern: 'needle' });
  });
  bench('read_many_files src/pkg1/**', async () => {
    await call('read_many_files', { paths: ['src/pkg1/**'] });
  });
});

describe('path resolution', () => {
  bench('resolveWorkspacePath existing file', async () => {
    await resolveWorkspacePath(root, 'src/pkg3/lib/file7.md');
  });
  bench('resolveWorkspacePath new file in new directories', async () => {
    await resolveWorkspacePath(root, 'src/pkg3/new/deeper/file.ts');
  });
});
