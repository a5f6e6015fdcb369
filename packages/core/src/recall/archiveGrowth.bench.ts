/**
 * The recall archive over a long synthetic session that grows by 14 messages per compaction (a
 * Read call, then its result of 0.3–2.8 KB, repeated): each compaction names the whole region so
 * far (its messages as pieces) and every tool result in it, as the proxy's working budget does.
 * Prints, for 65 and 300 compactions, the bytes the archive wrote against the distinct originals
 * and against what storing every entry whole on every put writes (the archive before content
 * addressing); then benches the 65 compactions' puts on disk (one put per compaction, as the
 * proxy awaits it before the request goes upstream).
 * Run: npx vitest bench --run packages/core/src/recall/archiveGrowth.bench.ts
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, bench, describe } from 'vitest';
import { recallIdOfText } from '../core/compression/recallPointers.js';
import { memoryArchiveFiles } from './memoryArchiveFiles.js';
import { RecallArchive, type RecallEntry } from './RecallArchive.js';

const STEP = 14;
const UNBOUNDED = { maxConversationBytes: 2 ** 30, maxTotalBytes: 2 ** 30 };

function seeded(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

/** Each compaction's entries: the region so far in pieces, then every result in it. */
function session(compactions: number): RecallEntry[][] {
  const random = seeded(7);
  const messages: { raw: string; result?: string }[] = [];
  for (let i = 0; i < compactions * STEP; i++) {
    if (i % 2 === 0) {
      const input = { file_path: `/w/src/m${i}.ts` };
      const content = [{ type: 'tool_use', id: `t${i}`, name: 'Read', input }];
      messages.push({ raw: JSON.stringify({ role: 'assistant', content }) });
      continue;
    }
    let result = '';
    const chars = 300 + Math.floor(random() * 2_500);
    while (result.length < chars) result += `line ${Math.floor(random() * 1e6)} = compute(x);\n`;
    result = result.slice(0, chars);
    const content = [{ type: 'tool_result', tool_use_id: `t${i - 1}`, content: result }];
    messages.push({ raw: JSON.stringify({ role: 'user', content }), result });
  }
  return Array.from({ length: compactions }, (_, k) => {
    const region = messages.slice(0, (k + 1) * STEP);
    const pieces = region.flatMap((message, at) => (at === 0 ? [message.raw] : [',', message.raw]));
    const text = pieces.join('');
    const results = region.flatMap(({ result }) =>
      result === undefined ? [] : [{ id: recallIdOfText('tool', result), text: result }],
    );
    return [{ id: recallIdOfText('messages', text), text, pieces }, ...results];
  });
}

function distinctBytes(puts: readonly RecallEntry[][]): number {
  const parts = new Set(puts.flat().flatMap((entry) => entry.pieces ?? [entry.text]));
  return [...parts].reduce((sum, part) => sum + Buffer.byteLength(part), 0);
}

const kb = (bytes: number) => `${Math.round(bytes / 1024).toLocaleString('en-US')} KB`;

async function report(compactions: number): Promise<string> {
  const puts = session(compactions);
  const files = memoryArchiveFiles();
  const archive = new RecallArchive({ dir: files.root, files, ...UNBOUNDED });
  for (const entries of puts) await archive.put('session:growth', entries);
  const distinct = distinctBytes(puts);
  const whole = puts.flat().reduce((sum, entry) => sum + Buffer.byteLength(entry.text), 0);
  const history = Buffer.byteLength(puts.at(-1)?.[0]?.text ?? '');
  return [
    `${compactions} compactions, history ${kb(history)}: distinct originals ${kb(distinct)}`,
    `written ${kb(files.written.bytes)} (${(files.written.bytes / distinct).toFixed(2)}×)`,
    `whole on every put ${kb(whole)} (${(whole / distinct).toFixed(1)}×)`,
  ].join(', ');
}

const lines = await Promise.all([report(65), report(300)]);
const dirs: string[] = [];
afterAll(() => {
  console.log(lines.join('\n'));
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('recall archive: 65 compactions of a growing session, on disk', () => {
  const puts = session(65);
  bench(
    'all puts',
    async () => {
      const dir = mkdtempSync(path.join(tmpdir(), 'dense-archive-growth-'));
      dirs.push(dir);
      const archive = new RecallArchive({ dir, ...UNBOUNDED });
      for (const entries of puts) await archive.put('session:growth', entries);
    },
    { iterations: 3, warmupIterations: 0 },
  );
});
