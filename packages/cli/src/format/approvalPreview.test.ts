import { describe, expect, it } from 'vitest';
import type { ApprovalRequest } from '@dense/core';
import { approvalPreview, MAX_PREVIEW_LINES } from './approvalPreview.js';

const files: Readonly<Record<string, string>> = {
  '/ws/notes.txt': 'one\ntwo\nstatus: draft\nthree\n',
};
const deps = {
  workspaceRoot: '/ws',
  readText: (file: string) => Promise.resolve(files[file]),
};

const request = (toolName: string, parameters: unknown): ApprovalRequest => ({
  toolName,
  kind: toolName === 'run_shell_command' ? 'shell' : 'write',
  callId: 'c1',
  description: 'd',
  parameters,
});

const texts = async (r: ApprovalRequest) => (await approvalPreview(r, deps)).map((l) => l.text);

describe('approvalPreview', () => {
  it('#13.3 replace on an existing file shows the unified diff', async () => {
    const shown = await texts(
      request('replace', {
        file_path: 'notes.txt',
        old_string: 'status: draft',
        new_string: 'status: final',
      }),
    );
    expect(shown).toContain('-status: draft');
    expect(shown).toContain('+status: final');
    expect(shown[0]).toMatch(/^@@ -1,4 \+1,4 @@$/);
  });

  it('#13.3 write_file to an existing file diffs; to a new file shows its first lines', async () => {
    const existing = await texts(
      request('write_file', { file_path: 'notes.txt', content: 'one\ntwo\n' }),
    );
    expect(existing).toEqual(expect.arrayContaining(['-status: draft', '-three']));
    const long = Array.from({ length: 30 }, (_, i) => `l${i}`).join('\n');
    const created = await texts(request('write_file', { file_path: 'new.txt', content: long }));
    expect(created[0]).toBe('new file, 30 lines');
    expect(created.slice(1, 3)).toEqual(['+l0', '+l1']);
    expect(created.at(-1)).toBe('… 20 more lines');
  });

  it('#13.3 a shell command is shown whole with its working directory', async () => {
    const shown = await texts(
      request('run_shell_command', { command: 'npm test -- --run\necho done', cwd: 'pkg' }),
    );
    expect(shown).toEqual(['$ npm test -- --run', '> echo done', 'in /ws/pkg']);
  });

  it('#13.3 long diffs are cut to the preview size with a count of the rest', async () => {
    const before = Array.from({ length: 100 }, (_, i) => `old ${i}`).join('\n');
    const after = Array.from({ length: 100 }, (_, i) => `new ${i}`).join('\n');
    const preview = await approvalPreview(
      request('write_file', { file_path: 'big.txt', content: after }),
      { workspaceRoot: '/ws', readText: () => Promise.resolve(before) },
    );
    expect(preview).toHaveLength(MAX_PREVIEW_LINES);
    expect(preview.at(-1)?.text).toMatch(/^… \d+ more lines$/);
  });

  it('other tools, or a replace whose text is not in the file, show nothing extra', async () => {
    expect(await texts(request('read_file', { file_path: 'notes.txt' }))).toEqual([]);
    expect(
      await texts(
        request('replace', { file_path: 'notes.txt', old_string: 'zzz', new_string: 'y' }),
      ),
    ).toEqual([]);
  });
});
