import { mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { recallIdOfText } from '../core/compression/recallPointers.js';
import { blobName } from './archiveLayout.js';
import { conversationDirName, RecallArchive } from './RecallArchive.js';

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

const entry = (text: string) => ({ id: recallIdOfText('test', text), text });

async function setup() {
  const base = await mkdtemp(path.join(tmpdir(), 'dense-recall-reads-'));
  dirs.push(base);
  const dir = path.join(base, 'recall');
  const warnings: string[] = [];
  const options = { dir, warn: (line: string) => warnings.push(line), maxTotalBytes: 64 };
  return { base, dir, warnings, options, archive: new RecallArchive(options) };
}

describe('recall archive: what it does not read', () => {
  it('#34.2 a directory named like an id is skipped with a warning; the id is found elsewhere and other ids still read', async () => {
    const { dir, warnings, archive } = await setup();
    const good = entry('the original');
    // Conversation names sort: the broken one is searched first.
    const [first, second] = ['session:x', 'session:y', 'session:z'].sort((a, b) =>
      conversationDirName(a).localeCompare(conversationDirName(b)),
    );
    await archive.put(second ?? '', [good]);
    const broken = path.join(dir, conversationDirName(first ?? ''));
    await mkdir(path.join(broken, `${good.id}.ref`), { recursive: true });
    await mkdir(path.join(broken, good.id), { recursive: true });
    const found = await archive.lookup(good.id);
    expect(found.kind === 'found' && found.bytes.toString()).toBe('the original');
    expect(warnings.join('\n')).toContain(`${good.id}`);
    expect(await archive.lookup(entry('never kept').id)).toEqual({
      kind: 'missing',
      reason: 'unknown',
    });
  });

  it('#34.2 symbolic links are never followed: not a linked name record, blob or conversation', async () => {
    const { base, dir, warnings, archive } = await setup();
    const secret = path.join(base, 'secret.txt');
    await writeFile(secret, 'private bytes');
    const kept = entry('kept');
    await archive.put('session:s', [kept]);
    const conversation = path.join(dir, conversationDirName('session:s'));
    // A name record linked to a file elsewhere, and a record naming a blob that is a link.
    const linkedRef = recallIdOfText('test', 'linked ref');
    await symlink(secret, path.join(conversation, `${linkedRef}.ref`));
    const viaBlob = recallIdOfText('test', 'via blob');
    const blob = blobName(Buffer.from('private bytes'));
    await symlink(secret, path.join(conversation, blob));
    await writeFile(path.join(conversation, `${viaBlob}.ref`), blob);
    // A whole conversation directory that is a link to a directory elsewhere.
    const outside = path.join(base, 'outside');
    await mkdir(outside);
    const elsewhere = recallIdOfText('test', 'elsewhere');
    await writeFile(path.join(outside, elsewhere), 'outside bytes');
    await symlink(outside, path.join(dir, 'ffffffffffffffff'));
    for (const id of [linkedRef, viaBlob, elsewhere]) {
      const found = await archive.lookup(id);
      expect(found.kind, id).toBe('missing');
    }
    const ok = await archive.lookup(kept.id);
    expect(ok.kind === 'found' && ok.bytes.toString()).toBe('kept');
    expect(warnings.length).toBeGreaterThanOrEqual(3);
    // A writer's sweep neither counts nor deletes what the links point at.
    await new RecallArchive({ dir, warn: () => undefined, maxTotalBytes: 1 }).put('session:t', [
      entry('x'.repeat(10)),
    ]);
    expect(await readFile(secret, 'utf8')).toBe('private bytes');
    expect(await readdir(outside)).toEqual([elsewhere]);
  });

  it('#34.2 foreign and corrupt files are skipped with a warning, never deleted, other ids unaffected', async () => {
    const { dir, warnings, archive, options } = await setup();
    const kept = entry('kept too');
    await archive.put('session:f', [kept]);
    const conversation = path.join(dir, conversationDirName('session:f'));
    const corrupt = recallIdOfText('test', 'corrupt');
    await writeFile(path.join(conversation, `${corrupt}.ref`), 'not a node name');
    const badList = `${'a'.repeat(40)}.list`;
    await writeFile(path.join(conversation, badList), '{"pieces": 12}');
    const listed = recallIdOfText('test', 'listed');
    await writeFile(path.join(conversation, `${listed}.ref`), badList);
    await writeFile(path.join(conversation, 'notes.txt'), 'mine');
    await writeFile(path.join(dir, 'README'), 'mine too');
    expect((await archive.lookup(corrupt)).kind).toBe('missing');
    expect((await archive.lookup(listed)).kind).toBe('missing');
    const ok = await archive.lookup(kept.id);
    expect(ok.kind === 'found' && ok.bytes.toString()).toBe('kept too');
    await new RecallArchive(options).put('session:f', [entry('new')]);
    const names = await readdir(conversation);
    expect(names).toContain('notes.txt');
    expect(warnings.some((line) => line.includes('notes.txt'))).toBe(true);
    expect(warnings.some((line) => line.includes(badList))).toBe(true);
    expect(await readdir(dir)).toContain('README');
  });
});
