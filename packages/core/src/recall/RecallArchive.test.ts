import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  conversationDirName,
  RecallArchive,
  recallMissingMessage,
  type RecallArchiveOptions,
} from './RecallArchive.js';

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

async function archive(
  extra: Partial<RecallArchiveOptions> = {},
): Promise<{ archive: RecallArchive; clock: { now: number }; dir: string }> {
  const dir = await mkdtemp(path.join(tmpdir(), 'dense-recall-'));
  dirs.push(dir);
  const clock = { now: Date.UTC(2026, 0, 1) };
  const store = new RecallArchive({
    dir: path.join(dir, 'recall'),
    now: () => clock.now,
    ...extra,
  });
  return { archive: store, clock, dir: path.join(dir, 'recall') };
}

const DAY = 24 * 60 * 60_000;
const ID_A = 'r0123456789';
const ID_B = 'rabcdefabcd';
const ID_C = 'r00000000ff';

describe('RecallArchive', () => {
  it('#24.2 gives back the exact bytes: non-ASCII, CRLF, no trailing newline', async () => {
    const { archive: store } = await archive();
    const text = 'línea 1 — ü ✓ 🎉\r\nline 2\r\n\ttabbed\u0000nul and no newline';
    await store.put('session:S1:abc', [{ id: ID_A, text }]);
    const found = await store.lookup(ID_A);
    expect(found.kind).toBe('found');
    if (found.kind === 'found') expect(found.bytes.equals(Buffer.from(text, 'utf8'))).toBe(true);
  });

  it('#24.2 files are 0600 and directories 0700, one directory per conversation', async () => {
    const { archive: store, dir } = await archive();
    await store.put('session:S1:abc', [{ id: ID_A, text: 'a' }]);
    await store.put('hash:def', [{ id: ID_B, text: 'b' }]);
    const conversations = (await readdir(dir)).sort();
    expect(conversations).toEqual(
      [conversationDirName('session:S1:abc'), conversationDirName('hash:def')].sort(),
    );
    expect((await stat(dir)).mode & 0o777).toBe(0o700);
    for (const conversation of conversations) {
      expect((await stat(path.join(dir, conversation))).mode & 0o777).toBe(0o700);
      for (const name of await readdir(path.join(dir, conversation))) {
        expect(name).toMatch(/^(r[0-9a-f]{10}\.ref|[0-9a-f]{40}(\.list)?)$/);
        expect((await stat(path.join(dir, conversation, name))).mode & 0o777).toBe(0o600);
      }
    }
  });

  it('#24.2 lookups search every conversation; an unknown or malformed id says so', async () => {
    const { archive: store } = await archive();
    await store.put('one', [{ id: ID_A, text: 'a' }]);
    await store.put('two', [{ id: ID_B, text: 'b' }]);
    const b = await store.lookup(ID_B);
    expect(b.kind === 'found' && b.bytes.toString()).toBe('b');
    expect(await store.lookup(ID_C)).toEqual({ kind: 'missing', reason: 'unknown' });
    expect(await store.lookup('r123')).toEqual({ kind: 'missing', reason: 'malformed' });
    expect(await store.lookup('../../etc/passwd')).toEqual({
      kind: 'missing',
      reason: 'malformed',
    });
  });

  it('#24.2 an empty archive directory (never written) answers unknown', async () => {
    const { archive: store } = await archive();
    expect(await store.lookup(ID_A)).toEqual({ kind: 'missing', reason: 'unknown' });
  });

  it('#24.2 originals expire after the TTL (injected clock), before and after the sweep', async () => {
    const { archive: store, clock } = await archive({ ttlMs: 7 * DAY });
    await store.put('one', [{ id: ID_A, text: 'a' }]);
    clock.now += 7 * DAY;
    expect((await store.lookup(ID_A)).kind).toBe('found');
    clock.now += 1;
    expect(await store.lookup(ID_A)).toEqual({ kind: 'missing', reason: 'expired' });
    await store.put('two', [{ id: ID_B, text: 'b' }]);
    expect(await store.lookup(ID_A)).toEqual({ kind: 'missing', reason: 'expired' });
    expect((await store.lookup(ID_B)).kind).toBe('found');
  });

  it('#24.2 writing an id again refreshes it', async () => {
    const { archive: store, clock } = await archive({ ttlMs: 7 * DAY });
    await store.put('one', [{ id: ID_A, text: 'a' }]);
    clock.now += 6 * DAY;
    await store.put('one', [{ id: ID_A, text: 'a' }]);
    clock.now += 6 * DAY;
    expect((await store.lookup(ID_A)).kind).toBe('found');
  });

  it('#24.2 a conversation past its bound loses its oldest originals, others keep theirs', async () => {
    const { archive: store, clock } = await archive({ maxConversationBytes: 10 });
    await store.put('one', [{ id: ID_A, text: 'aaaaaa' }]);
    await store.put('two', [{ id: ID_C, text: 'cccccc' }]);
    clock.now += 1000;
    await store.put('one', [{ id: ID_B, text: 'bbbbbb' }]);
    expect(await store.lookup(ID_A)).toEqual({ kind: 'missing', reason: 'evicted' });
    expect((await store.lookup(ID_B)).kind).toBe('found');
    expect((await store.lookup(ID_C)).kind).toBe('found');
  });

  it('#24.2 past the overall bound the oldest originals of any conversation go first', async () => {
    const { archive: store, clock } = await archive({ maxTotalBytes: 12 });
    await store.put('one', [{ id: ID_A, text: 'aaaaaa' }]);
    clock.now += 1000;
    await store.put('two', [{ id: ID_B, text: 'bbbbbb' }]);
    clock.now += 1000;
    await store.put('three', [{ id: ID_C, text: 'cccccc' }]);
    expect(await store.lookup(ID_A)).toEqual({ kind: 'missing', reason: 'evicted' });
    expect((await store.lookup(ID_B)).kind).toBe('found');
    expect((await store.lookup(ID_C)).kind).toBe('found');
  });

  it('#24.2 the newest original is kept even when it alone exceeds the bound', async () => {
    const { archive: store } = await archive({ maxTotalBytes: 2 });
    await store.put('one', [{ id: ID_A, text: 'too long for the bound' }]);
    expect((await store.lookup(ID_A)).kind).toBe('found');
  });

  it('#24.2 a second writer sees the first writer’s files after a rescan', async () => {
    const { archive: first, clock, dir } = await archive({ maxTotalBytes: 12 });
    await first.put('one', [{ id: ID_A, text: 'aaaaaa' }]);
    clock.now += 1000;
    const second = new RecallArchive({ dir, maxTotalBytes: 12, now: () => clock.now });
    await second.put('two', [{ id: ID_B, text: 'bbbbbb' }]);
    clock.now += 1000;
    await second.put('two', [{ id: ID_C, text: 'cccccc' }]);
    expect(await second.lookup(ID_A)).toEqual({ kind: 'missing', reason: 'evicted' });
  });

  it('#24.2 each reason has one line naming the id', () => {
    for (const reason of ['malformed', 'unknown', 'expired', 'evicted'] as const) {
      const line = recallMissingMessage(ID_A, reason);
      expect(line).toContain(ID_A);
      expect(line).not.toContain('\n');
    }
  });
});
