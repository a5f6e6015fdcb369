import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { recallIdOfText } from '../core/compression/recallPointers.js';
import { conversationDirName, RecallArchive, type RecallArchiveOptions } from './RecallArchive.js';

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

const DAY = 24 * 60 * 60_000;

async function setup(extra: Partial<RecallArchiveOptions> = {}) {
  const base = await mkdtemp(path.join(tmpdir(), 'dense-recall-bounds-'));
  dirs.push(base);
  const dir = path.join(base, 'recall');
  const clock = { now: Date.UTC(2026, 0, 1) };
  const options = { dir, now: () => clock.now, warn: () => undefined, ...extra };
  return { dir, clock, options, archive: new RecallArchive(options) };
}

/** Bytes of the stored content (blobs and lists) under `dir`, all conversations. */
async function contentBytes(dir: string): Promise<number> {
  let bytes = 0;
  for (const conversation of await readdir(dir)) {
    for (const name of await readdir(path.join(dir, conversation))) {
      if (/^[0-9a-f]{40}(\.list)?$/.test(name)) {
        bytes += (await stat(path.join(dir, conversation, name))).size;
      }
    }
  }
  return bytes;
}

const entry = (text: string) => ({ id: recallIdOfText('test', text), text });
const distinctText = (n: number, size: number) =>
  `${n}:`.padEnd(size, String.fromCharCode(97 + (n % 26)));

describe('recall archive bounds', () => {
  it('#34.2 many overlapping puts (a fresh writer, first scan under way) stay within the bound', async () => {
    const { archive, dir } = await setup({ maxConversationBytes: 8_192 });
    const puts = Array.from({ length: 40 }, (_, n) =>
      archive.put('session:busy', [entry(distinctText(n, 1_024))]),
    );
    await Promise.all(puts);
    expect(await contentBytes(dir)).toBeLessThanOrEqual(8_192);
    // The newest put's original is kept.
    const newest = await archive.lookup(entry(distinctText(39, 1_024)).id);
    expect(newest.kind).toBe('found');
  });

  it('#34.2 overlapping puts over several conversations hold the overall bound', async () => {
    const { archive, dir } = await setup({ maxTotalBytes: 10_000 });
    await Promise.all(
      Array.from({ length: 30 }, (_, n) =>
        archive.put(`session:${n % 3}`, [entry(distinctText(n, 2_000))]),
      ),
    );
    expect(await contentBytes(dir)).toBeLessThanOrEqual(10_000);
  });

  it('#34.2 the ids a compaction names survive its own eviction, past the bound', async () => {
    const { archive, clock } = await setup({ maxConversationBytes: 10_000 });
    const older = entry(distinctText(1, 4_000));
    await archive.put('session:c', [older]);
    clock.now += 1_000;
    // A compaction naming its region first, then the results inside it: 11 KB in one put.
    const messages = [distinctText(2, 3_000), ',', distinctText(3, 3_000)];
    const region = { id: recallIdOfText('messages', messages.join('')), text: messages.join('') };
    const results = [entry(distinctText(4, 2_500)), entry(distinctText(5, 2_500))];
    await archive.put('session:c', [{ ...region, pieces: messages }, ...results]);
    for (const named of [region, ...results]) {
      const found = await archive.lookup(named.id);
      expect(found.kind === 'found' && found.bytes.toString()).toBe(named.text);
    }
    expect(await archive.lookup(older.id)).toEqual({ kind: 'missing', reason: 'evicted' });
  });

  it('#34.2 expiry deletes the content no live id needs, and keeps what a live id shares', async () => {
    const { archive, clock, dir, options } = await setup({ ttlMs: 7 * DAY });
    const messages = [distinctText(6, 500), ',', distinctText(7, 500), ',', distinctText(8, 500)];
    const first = messages.slice(0, 3).join('');
    const whole = messages.join('');
    const a = { id: recallIdOfText('messages', first), text: first, pieces: messages.slice(0, 3) };
    const b = { id: recallIdOfText('messages', whole), text: whole, pieces: messages };
    await archive.put('session:e', [a]);
    clock.now += 4 * DAY;
    await archive.put('session:e', [b]);
    clock.now += 3 * DAY + 1;
    await archive.put('session:other', [entry('unrelated')]);
    expect(await archive.lookup(a.id)).toEqual({ kind: 'missing', reason: 'expired' });
    const kept = await archive.lookup(b.id);
    expect(kept.kind === 'found' && kept.bytes.toString()).toBe(whole);
    clock.now += 4 * DAY;
    // A new writer (another proxy run) sweeps what it finds on disk.
    await new RecallArchive(options).put('session:other', [entry('later')]);
    expect(await archive.lookup(b.id)).toEqual({ kind: 'missing', reason: 'expired' });
    const left = await readdir(path.join(dir, conversationDirName('session:e')));
    expect(left.filter((name) => !name.endsWith('.gone'))).toEqual([]);
    expect(await contentBytes(dir)).toBe(
      Buffer.byteLength('unrelated') + Buffer.byteLength('later'),
    );
  });
});
