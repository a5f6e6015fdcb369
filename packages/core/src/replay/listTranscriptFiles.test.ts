import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { listTranscriptFiles, type SkippedPath } from './listTranscriptFiles.js';
import { ReplayError } from './replayErrors.js';

let dir: string;
let outside: string;

beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'dense-list-'));
  outside = await mkdtemp(path.join(os.tmpdir(), 'dense-list-outside-'));
  await writeFile(path.join(dir, 'a.jsonl'), '');
  await writeFile(path.join(outside, 'far.jsonl'), '');
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
  await rm(outside, { recursive: true, force: true });
});

async function list(): Promise<{ files: string[]; skipped: SkippedPath[] }> {
  const skipped: SkippedPath[] = [];
  const files = await listTranscriptFiles(dir, { onSkipped: (entry) => skipped.push(entry) });
  return { files, skipped };
}

describe('#32.3 listTranscriptFiles and symbolic links', () => {
  it('#32.3 a link to a file is listed under its own path, wherever the file lies', async () => {
    await symlink(path.join(outside, 'far.jsonl'), path.join(dir, 'b.jsonl'));
    expect(await list()).toEqual({
      files: [path.join(dir, 'a.jsonl'), path.join(dir, 'b.jsonl')],
      skipped: [],
    });
  });

  it('#32.3 links to directories (an enclosing one: a loop) and broken links are reported, not walked', async () => {
    await mkdir(path.join(dir, 'sub'));
    await symlink(dir, path.join(dir, 'sub', 'loop'));
    await symlink(outside, path.join(dir, 'out'));
    await symlink(path.join(dir, 'missing'), path.join(dir, 'broken'));
    const { files, skipped } = await list();
    expect(files).toEqual([path.join(dir, 'a.jsonl')]);
    expect(skipped.map(({ path: p, kind }) => [path.relative(dir, p), kind])).toEqual([
      ['broken', 'broken-link'],
      ['out', 'directory-link'],
      [path.join('sub', 'loop'), 'directory-link'],
    ]);
  });

  it('#32.3 a second path to a listed file is reported as a duplicate of the first', async () => {
    await symlink(path.join(dir, 'a.jsonl'), path.join(dir, 'z.jsonl'));
    const { files, skipped } = await list();
    expect(files).toEqual([path.join(dir, 'a.jsonl')]);
    expect(skipped).toEqual([
      {
        path: path.join(dir, 'z.jsonl'),
        kind: 'duplicate',
        reason: `same file as ${path.join(dir, 'a.jsonl')}`,
      },
    ]);
  });

  it('#32.3 hidden entries are left out without a report; a directory of links only says how many were left out', async () => {
    await rm(path.join(dir, 'a.jsonl'));
    await symlink(outside, path.join(dir, 'only'));
    await symlink(outside, path.join(dir, '.hidden'));
    const skipped: SkippedPath[] = [];
    const listing = listTranscriptFiles(dir, { onSkipped: (entry) => skipped.push(entry) });
    await expect(listing).rejects.toBeInstanceOf(ReplayError);
    await expect(listing).rejects.toThrow(/holds no file to replay \(1 entry left out\)/);
    expect(skipped.map((entry) => path.basename(entry.path))).toEqual(['only']);
  });

  it('#32.3 a target that is itself a link to a file is that file', async () => {
    const link = path.join(dir, 'self.jsonl');
    await symlink(path.join(outside, 'far.jsonl'), link);
    expect(await listTranscriptFiles(link)).toEqual([link]);
  });
});
