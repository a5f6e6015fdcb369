import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveWorkspacePath } from './resolveWorkspacePath.js';

let base: string;
let root: string;
let outside: string;

beforeAll(async () => {
  base = await realpath(await mkdtemp(path.join(os.tmpdir(), 'dense-resolve-')));
  root = path.join(base, 'ws');
  outside = path.join(base, 'outside');
  await mkdir(path.join(root, 'src'), { recursive: true });
  await mkdir(outside);
  await writeFile(path.join(root, 'src', 'a.ts'), 'a');
  await writeFile(path.join(outside, 'secret.txt'), 's');
  await symlink(path.join(outside, 'secret.txt'), path.join(root, 'secret-link'));
  await symlink(outside, path.join(root, 'out-dir'));
  await symlink(path.join(outside, 'not-yet.txt'), path.join(root, 'dangling-out'));
  await symlink(path.join(root, 'src', 'later.ts'), path.join(root, 'dangling-in'));
  await symlink(path.join(root, 'src'), path.join(root, 'src-alias'));
  await symlink(root, path.join(base, 'ws-link'));
});

afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

describe('resolveWorkspacePath', () => {
  it('resolves a relative path inside the root, with a posix relative path', async () => {
    const resolved = await resolveWorkspacePath(root, 'src/./a.ts');
    expect(resolved).toEqual({
      kind: 'inside',
      absolutePath: path.join(root, 'src', 'a.ts'),
      realPath: path.join(root, 'src', 'a.ts'),
      relativePath: 'src/a.ts',
    });
  });

  it('calls the root itself "."', async () => {
    const resolved = await resolveWorkspacePath(root, '.');
    expect(resolved.kind === 'inside' && resolved.relativePath).toBe('.');
  });

  it('accepts a path that does not exist yet, under directories that do not exist yet', async () => {
    const resolved = await resolveWorkspacePath(root, 'new/deeper/file.ts');
    expect(resolved).toMatchObject({ kind: 'inside', relativePath: 'new/deeper/file.ts' });
  });

  it('accepts `..` that stays inside', async () => {
    const resolved = await resolveWorkspacePath(root, 'src/../src/a.ts');
    expect(resolved).toMatchObject({ kind: 'inside', relativePath: 'src/a.ts' });
  });

  it('refuses `..` that leaves the root', async () => {
    expect(await resolveWorkspacePath(root, '../outside/secret.txt')).toMatchObject({
      kind: 'outside',
      reason: 'path',
    });
    expect(await resolveWorkspacePath(root, 'src/../../ws-sibling')).toMatchObject({
      kind: 'outside',
    });
  });

  it('refuses an absolute path outside and accepts an absolute path inside', async () => {
    expect(await resolveWorkspacePath(root, '/etc/passwd')).toMatchObject({ kind: 'outside' });
    expect(await resolveWorkspacePath(root, path.join(root, 'src/a.ts'))).toMatchObject({
      kind: 'inside',
      relativePath: 'src/a.ts',
    });
  });

  it('refuses a symlinked file that points outside', async () => {
    expect(await resolveWorkspacePath(root, 'secret-link')).toMatchObject({
      kind: 'outside',
      reason: 'symlink',
      realPath: path.join(outside, 'secret.txt'),
    });
  });

  it('refuses a not-yet-existing file under a symlinked directory that points outside', async () => {
    expect(await resolveWorkspacePath(root, 'out-dir/new-file.txt')).toMatchObject({
      kind: 'outside',
      reason: 'symlink',
      realPath: path.join(outside, 'new-file.txt'),
    });
  });

  it('follows a dangling symlink: refused when it points outside, accepted when inside', async () => {
    expect(await resolveWorkspacePath(root, 'dangling-out')).toMatchObject({
      kind: 'outside',
      realPath: path.join(outside, 'not-yet.txt'),
    });
    expect(await resolveWorkspacePath(root, 'dangling-in')).toMatchObject({
      kind: 'inside',
      realPath: path.join(root, 'src', 'later.ts'),
      relativePath: 'dangling-in',
    });
  });

  it('accepts a symlink that stays inside, doing I/O on its target', async () => {
    expect(await resolveWorkspacePath(root, 'src-alias/a.ts')).toMatchObject({
      kind: 'inside',
      realPath: path.join(root, 'src', 'a.ts'),
      relativePath: 'src-alias/a.ts',
    });
  });

  it('works when the workspace root itself is reached through a symlink', async () => {
    const viaLink = path.join(base, 'ws-link');
    expect(await resolveWorkspacePath(viaLink, 'src/a.ts')).toMatchObject({
      kind: 'inside',
      realPath: path.join(root, 'src', 'a.ts'),
      relativePath: 'src/a.ts',
    });
    expect(await resolveWorkspacePath(viaLink, path.join(root, 'src/a.ts'))).toMatchObject({
      kind: 'inside',
      relativePath: 'src/a.ts',
    });
    expect(await resolveWorkspacePath(viaLink, '../outside/secret.txt')).toMatchObject({
      kind: 'outside',
    });
  });

  it('without symlinks, is inside exactly when the lexically normalized path is', async () => {
    const segment = fc.constantFrom('..', '.', 'a', 'b', 'src', 'x.ts');
    await fc.assert(
      fc.asyncProperty(fc.array(segment, { minLength: 1, maxLength: 8 }), async (segments) => {
        const p = segments.join('/');
        const lexical = path.relative(root, path.resolve(root, p));
        const expectedInside = !lexical.startsWith('..');
        const resolved = await resolveWorkspacePath(root, p);
        expect(resolved.kind === 'inside').toBe(expectedInside);
      }),
      { numRuns: 150 },
    );
  });
});
