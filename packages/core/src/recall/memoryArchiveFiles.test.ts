import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fc, test } from '@fast-check/vitest';
import { afterEach, describe, expect } from 'vitest';
import { memoryArchiveFiles } from './memoryArchiveFiles.js';
import { RecallArchive, type ArchiveLookup } from './RecallArchive.js';

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

const IDS = ['r0000000001', 'r0000000002', 'r0000000003', 'r0000000004', 'r0000000005'];

/** One put: a conversation, some originals, and how long after the previous put it comes. */
const PUT = fc.record({
  conversation: fc.constantFrom('session:A', 'session:B'),
  entries: fc.array(
    fc.record({ id: fc.constantFrom(...IDS, 'not-an-id'), text: fc.string({ maxLength: 40 }) }),
    { maxLength: 3 },
  ),
  afterMs: fc.constantFrom(1, 1_000, 60_000),
});

const shown = (found: ArchiveLookup) =>
  found.kind === 'found' ? `found ${found.bytes.toString('hex')}` : `missing ${found.reason}`;

describe('recall archive in memory', () => {
  test.prop([fc.array(PUT, { minLength: 1, maxLength: 8 })], { numRuns: 25 })(
    '#24.4 the archive over files in memory keeps, evicts, expires and looks up as over files on disk',
    async (puts) => {
      const dir = await mkdtemp(path.join(tmpdir(), 'dense-recall-memory-'));
      dirs.push(dir);
      const clock = { now: Date.UTC(2026, 0, 1) };
      const bounds = { ttlMs: 90_000, maxConversationBytes: 60, maxTotalBytes: 100 };
      const now = () => clock.now;
      const disk = new RecallArchive({ dir, now, ...bounds });
      const memory = new RecallArchive({ dir, files: memoryArchiveFiles(), now, ...bounds });
      for (const put of puts) {
        clock.now += put.afterMs;
        await disk.put(put.conversation, put.entries);
        await memory.put(put.conversation, put.entries);
        for (const id of [...IDS, 'bad']) {
          expect(shown(await memory.lookup(id)), id).toBe(shown(await disk.lookup(id)));
        }
      }
    },
  );
});
