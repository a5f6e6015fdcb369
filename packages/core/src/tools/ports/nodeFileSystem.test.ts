import {
  chmod,
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  rm,
  stat,
  symlink,
  writeFile,
} from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { errnoCode } from './FileSystem.js';
import { nodeFileSystem } from './nodeFileSystem.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'dense-fs-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('nodeFileSystem', () => {
  it('writes atomically, keeping the mode of an existing file and leaving no temp file', async () => {
    const file = path.join(dir, 'tool.sh');
    await writeFile(file, 'old');
    await chmod(file, 0o750);
    await nodeFileSystem.writeFile(file, 'new');
    expect(await readFile(file, 'utf8')).toBe('new');
    expect((await stat(file)).mode & 0o777).toBe(0o750);
    expect(await readdir(dir)).toEqual(['tool.sh']);
  });

  it('rejects with the errno code when the parent is missing, and cleans up', async () => {
    const error: unknown = await nodeFileSystem
      .writeFile(path.join(dir, 'no', 'f'), 'x')
      .catch((e: unknown) => e);
    expect(errnoCode(error)).toBe('ENOENT');
    expect(await readdir(dir)).toEqual([]);
  });

  it('reports entry kinds without following symlinks in readdir and lstat', async () => {
    await mkdir(path.join(dir, 'd'));
    await writeFile(path.join(dir, 'f'), 'abc');
    await symlink(path.join(dir, 'd'), path.join(dir, 'l'));
    const entries = [...(await nodeFileSystem.readdir(dir))].sort((a, b) =>
      a.name.localeCompare(b.name),
    );
    expect(entries).toEqual([
      { name: 'd', kind: 'directory' },
      { name: 'f', kind: 'file' },
      { name: 'l', kind: 'symlink' },
    ]);
    expect((await nodeFileSystem.lstat(path.join(dir, 'l'))).kind).toBe('symlink');
    expect((await nodeFileSystem.stat(path.join(dir, 'l'))).kind).toBe('directory');
    expect((await nodeFileSystem.stat(path.join(dir, 'f'))).size).toBe(3);
  });
});

describe('errnoCode', () => {
  it('reads a string code and ignores everything else', () => {
    expect(errnoCode({ code: 'EACCES' })).toBe('EACCES');
    expect(errnoCode({ code: 3 })).toBeUndefined();
    expect(errnoCode(new Error('x'))).toBeUndefined();
    expect(errnoCode(null)).toBeUndefined();
  });
});
