import { describe, expect, it } from 'vitest';
import { budgetProxy } from '../proxy/test-utils/budgetProxy.js';
import { compactionRequestBody, longSessionBody } from '../proxy/test-utils/longSession.js';
import { answerCompaction } from '../proxy/budget/answerCompaction.js';
import { recallIdOfMessages } from '../proxy/budget/compactionSummary.js';
import { memoryArchiveFiles } from './memoryArchiveFiles.js';
import { RecallArchive, type RecallEntry } from './RecallArchive.js';

/** The bytes a store that keeps each distinct original once must write: its pieces, or its text. */
function distinctBytes(puts: readonly (readonly RecallEntry[])[]): number {
  const distinct = new Set<string>();
  for (const entries of puts) {
    for (const entry of entries)
      for (const part of entry.pieces ?? [entry.text]) distinct.add(part);
  }
  let bytes = 0;
  for (const part of distinct) bytes += Buffer.byteLength(part, 'utf8');
  return bytes;
}

/**
 * A Claude Code-shaped session growing one round per request through the proxy's working budget:
 * every request's recall entries, in order, and the ids of the compacted regions.
 */
function growingSession(rounds: number) {
  const proxy = budgetProxy({ api: 'anthropic', budget: 6_000, sessionId: 'grow' });
  const puts: RecallEntry[][] = [];
  const regions: { id: string; text: string }[] = [];
  for (let round = 1; round <= rounds; round++) {
    const result = proxy.send(longSessionBody(round, 1_500));
    if (result.recalls.length > 0) puts.push([...result.recalls]);
    if (result.compaction?.kind !== 'compacted') continue;
    const region = result.recalls.find((entry) => entry.pieces !== undefined);
    if (region !== undefined) regions.push({ id: region.id, text: region.text });
  }
  return { puts, regions };
}

describe('recall archive over a growing session', () => {
  const session = growingSession(100);

  it('#34.2 each compaction names its region in pieces that join to the region exactly', () => {
    expect(session.regions.length).toBeGreaterThanOrEqual(10);
    for (const entries of session.puts) {
      for (const entry of entries) {
        if (entry.pieces === undefined) continue;
        expect(entry.pieces.join('')).toBe(entry.text);
        expect(entry.id).toBe(recallIdOfMessages(entry.text));
      }
    }
  });

  it('#34.2 bytes written grow with the distinct originals, not with the square of the session', async () => {
    const files = memoryArchiveFiles();
    const archive = new RecallArchive({ dir: files.root, files });
    for (const entries of session.puts) await archive.put('session:grow', entries);
    const distinct = distinctBytes(session.puts);
    // What storing every entry whole on every put writes (the archive before content addressing).
    const whole = session.puts.flat().reduce((sum, e) => sum + Buffer.byteLength(e.text), 0);
    expect(whole).toBeGreaterThan(3 * distinct);
    expect(files.written.bytes).toBeLessThanOrEqual(1.5 * distinct);
  });

  it('#34.2 every compacted region reads back byte for byte, the newest and the oldest', async () => {
    const files = memoryArchiveFiles();
    const archive = new RecallArchive({ dir: files.root, files });
    for (const entries of session.puts) await archive.put('session:grow', entries);
    for (const region of session.regions) {
      const found = await archive.lookup(region.id);
      expect(found.kind === 'found' && found.bytes.equals(Buffer.from(region.text))).toBe(true);
    }
  });

  it("#34.2 Dense's answer to the client's compaction names its messages in pieces, read back exactly", async () => {
    const reply = answerCompaction('anthropic', Buffer.from(compactionRequestBody()));
    const region = reply?.recalls.find((entry) => entry.pieces !== undefined);
    expect(region?.pieces?.length).toBeGreaterThan(10);
    expect(region?.pieces?.join('')).toBe(region?.text);
    expect(region?.id).toBe(recallIdOfMessages(region?.text ?? ''));
    const files = memoryArchiveFiles();
    const archive = new RecallArchive({ dir: files.root, files });
    await archive.put('session:answer', reply?.recalls ?? []);
    const found = await archive.lookup(region?.id ?? '');
    expect(found.kind === 'found' && found.bytes.toString()).toBe(region?.text);
  });
});
