import { readFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { IContent } from '@dense/core';
import { replayThroughProxy } from './replayThroughProxy.js';
import { openSessionSent, sentFile, userMessagesFile, type SentLine } from './SentLog.js';
import { SideIntent } from './SideIntent.js';
import { readCall, readResult, T0 } from './test-utils/readSession.js';

const TASK = 'Make the importer skip empty rows.';
const FOLLOW_UP = 'Also log how many rows were skipped.';
const PARAPHRASE = 'Summary: the user wants the importer changed.';

const text = (speaker: 'human' | 'ai', words: string, at?: number): IContent => ({
  speaker,
  blocks: [{ type: 'text', text: words }],
  ...(at === undefined ? {} : { metadata: { timestamp: at } }),
});

/** A task, a read, a reply, the user's `/compact` (recorded summary `summary`), a follow-up, a reply. */
function session(summary: string): IContent[] {
  return [
    text('human', TASK),
    readCall('m0', 0),
    readResult('m0', 2_000),
    text('ai', 'Read the importer.', T0 + 60_000),
    { ...text('human', summary), metadata: { isSummary: true, timestamp: T0 + 120_000 } },
    text('human', FOLLOW_UP),
    text('ai', 'Changed it.', T0 + 180_000),
  ];
}

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

async function replay(summary: string, sent?: string) {
  const contents = session(summary);
  const files =
    sent === undefined
      ? undefined
      : await openSessionSent(sent, 'synthetic 000000', new SideIntent(contents).userMessages());
  try {
    return await replayThroughProxy({
      session: { contents, model: 'claude-sonnet-4-6' },
      api: 'anthropic',
      prefix: { systemTokens: 1_000, toolTokens: 1_000 },
      count: (words) => words.length,
      sessionId: 'synthetic-intent',
      ...(files === undefined ? {} : { sent: files }),
    });
  } finally {
    await files?.close();
  }
}

const lines = async (file: string): Promise<SentLine[]> =>
  (await readFile(file, 'utf8'))
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as SentLine);

describe('bench:proxy intent', () => {
  it("#33.5 the pass-through side is judged on the client's own summary: a paraphrase loses the task", async () => {
    const result = await replay(PARAPHRASE);
    // Calls at entries 1, 3 and 6 judged; at 6 the task is only in the summary, paraphrased.
    expect(result.intent.passThrough).toMatchObject({
      calls: 3,
      messages: 4,
      verbatim: 3,
      lost: 1,
      callsWithAll: 2,
    });
  });

  it("#33.5 a client's summary that quotes the task keeps it verbatim", async () => {
    const result = await replay(`Summary. The user asked: ${TASK}`);
    expect(result.intent.passThrough).toMatchObject({ calls: 3, verbatim: 4, lost: 0 });
  });

  it("#33.5 a proxy-side client whose compaction Dense answered goes on with Dense's summary", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'dense-bench-sent-'));
    dirs.push(dir);
    const result = await replay(PARAPHRASE, dir);
    expect(result.compactions.proxy.answeredByDense).toBe(1);
    const last = (await lines(sentFile(dir, 'synthetic 000000', 'proxy'))).at(-1);
    const sent = JSON.stringify(last?.messages);
    expect(sent).not.toContain(PARAPHRASE);
    expect(sent).toContain(FOLLOW_UP);
  });

  it('#33.6 --sent writes one line per request that reached each side, with the messages as sent', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'dense-bench-sent-'));
    dirs.push(dir);
    const result = await replay(PARAPHRASE, dir);

    const pass = await lines(sentFile(dir, 'synthetic 000000', 'pass-through'));
    expect(pass).toHaveLength(result.bills.passThrough.length);
    expect(pass.map((line) => [line.request, line.kind, line.entry])).toEqual([
      [1, 'call', 1],
      [2, 'call', 3],
      [3, 'compaction', 4],
      [4, 'call', 6],
    ]);
    const last = pass.at(-1);
    expect(last?.intent).toEqual({ messages: 2, verbatim: 1, cut: 0, lost: 1 });
    expect(JSON.stringify(last?.messages)).toContain(FOLLOW_UP);
    expect(JSON.stringify(last?.messages)).not.toContain(TASK);
    expect(Object.keys(last?.messages[0] ?? {})).toEqual(['speaker', 'blocks']);

    // The proxy answered the compaction itself: nothing of it reached its upstream.
    const proxy = await lines(sentFile(dir, 'synthetic 000000', 'proxy'));
    expect(proxy).toHaveLength(result.bills.proxy.length);
    expect(proxy.every((line) => line.kind === 'call')).toBe(true);

    const users = (await readFile(userMessagesFile(dir, 'synthetic 000000'), 'utf8')).trim();
    expect(users.split('\n').map((line) => (JSON.parse(line) as { entry: number }).entry)).toEqual([
      0, 5,
    ]);
  });
});
