import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FileTokenStore } from './FileTokenStore.js';
import { TokenStoreError } from './TokenStore.js';
import { tokenStoreContract } from './test-utils/tokenStoreContract.js';

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

async function tempFile(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'dense-tokens-'));
  dirs.push(dir);
  return path.join(dir, 'gateway', 'tokens.json');
}

tokenStoreContract('FileTokenStore', async () => {
  const file = await tempFile();
  return { store: new FileTokenStore({ file }), stored: () => readFile(file, 'utf8') };
});

describe('FileTokenStore', () => {
  it('#36.4 the file is written with mode 0600 and leaves no temporary file', async () => {
    const file = await tempFile();
    const store = new FileTokenStore({ file, now: () => Date.UTC(2026, 0, 2, 3, 4, 5) });
    const created = await store.create('ada');
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(created.record.createdAt).toBe('2026-01-02T03:04:05.000Z');
    expect(await readdir(path.dirname(file))).toEqual(['tokens.json']);
  });

  it('#36.4 a missing file is an empty store', async () => {
    const store = new FileTokenStore({ file: await tempFile() });
    expect(await store.list()).toEqual([]);
    expect(await store.userOf('dense_' + 'A'.repeat(43))).toBeUndefined();
  });

  it('#36.4 a second store on the same file (another process) sees creations and revocations', async () => {
    const file = await tempFile();
    const cli = new FileTokenStore({ file });
    const proxy = new FileTokenStore({ file });
    const created = await cli.create('ada');
    expect(await proxy.userOf(created.token)).toBe('ada');
    await cli.revoke(created.record.id);
    expect(await proxy.userOf(created.token)).toBeUndefined();
  });

  it('#36.4 a bad token file is a typed error with an actionable message, for every operation', async () => {
    const file = await tempFile();
    const store = new FileTokenStore({ file });
    await store.create('ada');
    for (const content of [
      '{ not json',
      '{"version":2,"tokens":[]}',
      '{"version":1,"tokens":[{"hash":"x"}]}',
    ]) {
      await writeFile(file, content);
      for (const run of [
        () => store.list(),
        () => store.create('bob'),
        () => store.revoke('ada'),
      ]) {
        const error: unknown = await run().catch((caught: unknown) => caught);
        expect(error).toBeInstanceOf(TokenStoreError);
        expect(error).toMatchObject({ code: 'TOKEN_FILE_INVALID' });
        const message = (error as Error).message;
        expect(message).toContain(file);
        expect(message).toContain('dense token create');
        expect(message).not.toContain('\n');
      }
      await expect(store.userOf('dense_' + 'B'.repeat(43))).rejects.toMatchObject({
        code: 'TOKEN_FILE_INVALID',
      });
    }
    expect(await readFile(file, 'utf8')).toBe('{"version":1,"tokens":[{"hash":"x"}]}');
  });

  it('#36.4 an unreadable token file is a typed error', async () => {
    const file = await tempFile();
    await mkdir(file, { recursive: true });
    const store = new FileTokenStore({ file });
    await expect(store.list()).rejects.toMatchObject({ code: 'TOKEN_FILE_UNREADABLE' });
    await expect(store.create('ada')).rejects.toMatchObject({ code: 'TOKEN_FILE_UNREADABLE' });
  });
});
