import { describe, expect, it } from 'vitest';
import {
  human,
  readFile,
  replaceInFile,
  toolRoundTrip,
} from '../../../../test-utils/historyBuilders.js';
import type { IContent } from '../../../../services/history/IContent.js';
import type { DensityConfig } from '../../types.js';
import { optimizeDensity } from './optimizeDensity.js';

describe('READ→WRITE with shellFileOps', () => {
  const ROOT = '/workspace';
  const config = (shellFileOps: boolean | undefined): DensityConfig => ({
    readWritePruning: true,
    fileDedupe: false,
    recencyPruning: false,
    recencyRetention: 3,
    workspaceRoot: ROOT,
    ...(shellFileOps === undefined ? {} : { shellFileOps }),
  });
  const shell = (id: string, command: string, result: string, extra: object = {}) =>
    toolRoundTrip(id, 'run_shell_command', { command, ...extra }, result);
  const ids = (history: readonly IContent[], result: ReturnType<typeof optimizeDensity>) =>
    result.removals.flatMap(
      (i) => history[i]?.blocks.flatMap((b) => (b.type === 'tool_call' ? [b.id] : [])) ?? [],
    );

  it('is off when absent or false: shell commands are neither reads nor writes', () => {
    const history = [...shell('s', 'cat src/a.ts', 'A'), ...replaceInFile('w', 'src/a.ts')];
    expect(optimizeDensity(history, config(undefined)).metadata.readWrite).toBe(0);
    expect(optimizeDensity(history, config(false)).metadata.readWrite).toBe(0);
  });

  it('treats a successful shell read as a read made stale by a later write', () => {
    const history = [
      ...shell('s', "sed -n '1,80p' src/a.ts", 'A\nExit Code: 0'),
      ...replaceInFile('w', 'src/a.ts'),
    ];
    const result = optimizeDensity(history, config(true));
    expect(result.metadata.readWrite).toBe(1);
    expect(ids(history, result)).toEqual(['s']);
  });

  it('treats a successful shell write as a write that makes earlier reads stale', () => {
    const history = [
      ...readFile('r1', 'src/a.ts', 'A'),
      ...shell('s1', "sed -i 's/a/b/' src/a.ts", 'Exit Code: 0'),
      ...shell('s2', 'cat src/a.ts', 'B'),
      ...shell('s3', 'cat > src/a.ts <<EOF\nC\nEOF', ''),
    ];
    expect(ids(history, optimizeDensity(history, config(true)))).toEqual(['r1', 's2']);
  });

  it('a failed shell write (non-zero exit or error) makes nothing stale; a failed shell read is not pruned', () => {
    const history = [
      ...readFile('r1', 'src/a.ts', 'A'),
      ...shell('s1', "sed -i 's/a/b/' src/a.ts", 'sed: can not read src/a.ts\nExit Code: 2'),
      ...toolRoundTrip(
        's2',
        'run_shell_command',
        { command: '> src/a.ts' },
        '',
        'permission denied',
      ),
    ];
    expect(optimizeDensity(history, config(true)).metadata.readWrite).toBe(0);
    const failedRead = [
      ...shell('s', 'cat src/a.ts', 'No such file\nExit Code: 1'),
      ...replaceInFile('w', 'src/a.ts'),
    ];
    expect(optimizeDensity(failedRead, config(true)).metadata.readWrite).toBe(0);
  });

  it('resolves shell paths against the call directory', () => {
    const history = [
      ...shell('s', 'cat a.ts', 'A', { directory: 'pkg' }),
      ...replaceInFile('w', 'pkg/a.ts'),
    ];
    expect(optimizeDensity(history, config(true)).metadata.readWrite).toBe(1);
    const elsewhere = [
      ...shell('s', 'cat a.ts', 'A', { directory: 'pkg' }),
      ...replaceInFile('w', 'a.ts'),
    ];
    expect(optimizeDensity(elsewhere, config(true)).metadata.readWrite).toBe(0);
  });

  it('a shell result already replaced by the pointer or a summary no longer proves success', () => {
    for (const result of [
      '[Result pruned — re-run tool to retrieve]',
      '[run_shell_command sed — error: exit 2]',
    ]) {
      const history = [
        ...readFile('r1', 'src/a.ts', 'A'),
        ...shell('s1', "sed -i 's/a/b/' src/a.ts", result),
        ...shell('s2', 'cat src/a.ts', result),
        ...replaceInFile('w', 'src/a.ts'),
      ];
      // s1 cannot be trusted as a write; s2 cannot be trusted as a successful read; r1 is stale by w.
      expect(ids(history, optimizeDensity(history, config(true)))).toEqual(['r1']);
    }
  });

  it('stays idempotent when recency replaces a failed shell read (its exit code is gone)', () => {
    const history = [
      ...shell('s1', 'cat src/a.ts', `${'No such file\n'.repeat(5)}Exit Code: 1`),
      ...shell('s2', 'npm test', `${'ok\n'.repeat(20)}Exit Code: 0`),
      ...replaceInFile('w', 'src/a.ts'),
    ];
    const withRecency = {
      ...config(true),
      readWritePruning: true,
      fileDedupe: false,
      recencyPruning: true,
      recencyRetention: 1,
    };
    const once = optimizeDensity(history, withRecency);
    expect(once.metadata).toEqual({
      readWrite: 0,
      dedup: 0,
      recency: 1,
    });
    const applied = history.map((entry, i) => once.replacements.get(i) ?? entry);
    const again = optimizeDensity(applied, withRecency);
    expect(again.removals).toEqual([]);
    expect(again.replacements.size).toBe(0);
  });

  it('stays idempotent with shell operations', () => {
    const history = [
      human('go'),
      ...shell('s1', 'cat src/a.ts', 'A'),
      ...shell('s2', "sed -i 's/a/b/' src/a.ts", ''),
      ...shell('s3', 'cat src/a.ts', 'B'),
    ];
    const once = optimizeDensity(history, config(true));
    const kept = history.filter((_, i) => !once.removals.includes(i));
    const again = optimizeDensity(kept, config(true));
    expect(once.metadata.readWrite).toBe(1);
    expect(again.removals).toEqual([]);
  });
});

describe('deletions', () => {
  const config: DensityConfig = {
    readWritePruning: true,
    fileDedupe: false,
    recencyPruning: false,
    recencyRetention: 3,
    workspaceRoot: '/workspace',
  };

  it('a successful delete_file (from imported sessions) makes earlier reads stale; a failed one does not', () => {
    const deleted = [
      ...readFile('r', 'src/a.ts', 'A'),
      ...toolRoundTrip('d', 'delete_file', { file_path: 'src/a.ts' }, 'Deleted.'),
    ];
    expect(optimizeDensity(deleted, config).metadata.readWrite).toBe(1);
    const failed = [
      ...readFile('r', 'src/a.ts', 'A'),
      ...toolRoundTrip('d', 'delete_file', { file_path: 'src/a.ts' }, '', 'No such file'),
    ];
    expect(optimizeDensity(failed, config).metadata.readWrite).toBe(0);
  });
});
