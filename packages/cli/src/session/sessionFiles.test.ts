import { mkdir, mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CliError } from '../cliErrors.js';
import { findSessionFile, newSessionId, sessionFileFor } from './sessionFiles.js';

let dir: string;

beforeEach(async () => {
  dir = path.join(await mkdtemp(path.join(tmpdir(), 'dense-sessions-')), 'sessions');
  await mkdir(dir);
});

afterEach(async () => {
  await rm(path.dirname(dir), { recursive: true, force: true });
});

async function touch(id: string, mtimeSeconds: number): Promise<void> {
  const file = sessionFileFor(dir, id);
  await writeFile(file, '{}\n');
  await utimes(file, mtimeSeconds, mtimeSeconds);
}

describe('session files', () => {
  it('ids start with the local start time so names sort by time', () => {
    expect(newSessionId(new Date(2026, 10, 22, 8, 5, 9), () => 'abc123')).toBe(
      '20261122-080509-abc123',
    );
  });

  it("'latest' is the most recently written recording", async () => {
    await touch('20261120-100000-aaaaaa', 1_000);
    await touch('20261121-100000-bbbbbb', 3_000);
    await touch('20261122-100000-cccccc', 2_000);
    expect((await findSessionFile(dir, 'latest')).id).toBe('20261121-100000-bbbbbb');
  });

  it('finds an exact id or a unique prefix, and refuses an ambiguous one', async () => {
    await touch('20261120-100000-aaaaaa', 1_000);
    await touch('20261120-110000-bbbbbb', 1_000);
    expect((await findSessionFile(dir, '20261120-110000-bbbbbb')).file).toBe(
      sessionFileFor(dir, '20261120-110000-bbbbbb'),
    );
    expect((await findSessionFile(dir, '20261120-10')).id).toBe('20261120-100000-aaaaaa');
    await expect(findSessionFile(dir, '20261120')).rejects.toThrow(/ambiguous/);
    await expect(findSessionFile(dir, 'zzz')).rejects.toBeInstanceOf(CliError);
  });

  it('says so when there is nothing to resume', async () => {
    await expect(findSessionFile(path.join(dir, 'missing'), 'latest')).rejects.toThrow(
      /No recorded sessions/,
    );
  });
});
