import { fc, test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import { recallIdOfText } from '../core/compression/recallPointers.js';
import { memoryArchiveFiles } from './memoryArchiveFiles.js';
import { RecallArchive, type RecallEntry } from './RecallArchive.js';

/** Message texts: short and long, any code point (pieces may cut surrogate pairs). */
const MESSAGE = fc.oneof(
  fc.string({ maxLength: 8 }),
  fc.string({ unit: 'grapheme', minLength: 60, maxLength: 200 }),
  fc.constantFrom('{"role":"user"}', '😀'.repeat(40), 'x'.repeat(70)),
);

/** One put: regions over a shared message list (prefixes, as compactions cover), and plain texts. */
const PUT = fc.record({
  conversation: fc.constantFrom('session:A', 'session:B'),
  regions: fc.array(fc.nat({ max: 12 }), { maxLength: 3 }),
  /** Where region pieces are cut inside a message too (code units, not code points). */
  cut: fc.nat({ max: 40 }),
  texts: fc.array(fc.oneof(MESSAGE, fc.constant('')), { maxLength: 3 }),
});

function regionEntry(messages: readonly string[], length: number, cut: number): RecallEntry {
  const pieces: string[] = [];
  messages.slice(0, Math.max(1, length)).forEach((message, at) => {
    if (at > 0) pieces.push(at % 2 === 0 ? ',' : ',\n ');
    pieces.push(message.slice(0, cut), message.slice(cut));
  });
  const text = pieces.join('');
  return { id: recallIdOfText('messages', text), text, pieces };
}

describe('recall archive: what was put is what a lookup gives', () => {
  test.prop(
    [fc.array(MESSAGE, { minLength: 1, maxLength: 12 }), fc.array(PUT, { maxLength: 10 })],
    {
      numRuns: 60,
    },
  )(
    '#34.2 any sequence of puts, then every id gives back exactly its text',
    async (messages, puts) => {
      const files = memoryArchiveFiles();
      const archive = new RecallArchive({ dir: files.root, files, warn: () => undefined });
      const expected = new Map<string, string>();
      for (const put of puts) {
        const entries: RecallEntry[] = [
          ...put.regions.map((length) => regionEntry(messages, length, put.cut)),
          ...put.texts.map((text) => ({ id: recallIdOfText('text', text), text })),
        ];
        await archive.put(put.conversation, entries);
        for (const entry of entries) expected.set(entry.id, entry.text);
      }
      for (const [id, text] of expected) {
        const found = await archive.lookup(id);
        expect(found.kind === 'found' && found.bytes.equals(Buffer.from(text, 'utf8')), id).toBe(
          true,
        );
        expect(files.bytesOf(id)?.equals(Buffer.from(text, 'utf8'))).toBe(true);
      }
    },
  );

  test.prop(
    [fc.array(MESSAGE, { minLength: 1, maxLength: 12 }), fc.array(PUT, { maxLength: 10 })],
    {
      numRuns: 60,
    },
  )(
    '#34.2 under a small bound: the last put is whole, and an id found is never other bytes',
    async (messages, puts) => {
      const files = memoryArchiveFiles();
      const archive = new RecallArchive({
        dir: files.root,
        files,
        maxConversationBytes: 600,
        maxTotalBytes: 900,
        warn: () => undefined,
      });
      const expected = new Map<string, string>();
      let last: RecallEntry[] = [];
      for (const put of puts) {
        last = [
          ...put.regions.map((length) => regionEntry(messages, length, put.cut)),
          ...put.texts.map((text) => ({ id: recallIdOfText('text', text), text })),
        ];
        await archive.put(put.conversation, last);
        for (const entry of last) expected.set(entry.id, entry.text);
      }
      for (const entry of last) expect((await archive.lookup(entry.id)).kind).toBe('found');
      for (const [id, text] of expected) {
        const found = await archive.lookup(id);
        if (found.kind === 'found')
          expect(found.bytes.equals(Buffer.from(text, 'utf8'))).toBe(true);
        else expect(['evicted', 'unknown']).toContain(found.reason);
      }
    },
  );
});

describe('recall archive: one put renaming content another entry of it takes', () => {
  test('#34.2 an id re-cut into other pieces never frees the content another id of the same put names', async () => {
    const files = memoryArchiveFiles();
    const archive = new RecallArchive({ dir: files.root, files, warn: () => undefined });
    const message = '😀'.repeat(40);
    const region = (cut: number): RecallEntry => ({
      id: recallIdOfText('messages', message),
      text: message,
      pieces: [message.slice(0, cut), message.slice(cut)],
    });
    await archive.put('session:B', [region(0)]);
    const plain = { id: recallIdOfText('text', message), text: message };
    await archive.put('session:B', [region(2), plain]);
    for (const id of [region(2).id, plain.id]) {
      const found = await archive.lookup(id);
      expect(found.kind === 'found' && found.bytes.toString('utf8')).toBe(message);
    }
  });
});
