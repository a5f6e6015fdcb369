import { mkdtemp, open, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { IContent } from '../services/history/IContent.js';
import type { TokenCounter } from '../services/history/TokenCounter.js';
import { ai, human, readFile as readRound } from '../test-utils/historyBuilders.js';
import { importedSession } from '../test-utils/importedSession.js';
import { IntentOracle } from './intent/IntentOracle.js';
import { planIntent } from './intent/planIntent.js';
import { prepareReplay } from './prepareReplay.js';
import { getReplayPolicy, type ReplayPolicyId } from './replayPolicies.js';
import { replaySession } from './replaySession.js';
import { openSentLog, SentLog, SentLogError, sentLine } from './sentLog.js';

/** One token per character: the window below is reached after a few reads. */
const CHARS: TokenCounter = { countText: (text) => text.length };

/** Three user turns, each reading a large file: at 800 tokens one-shot summarizes user messages away. */
const RECORDING: IContent[] = [
  human('Fix the parser, keep the public API'),
  ...readRound('c1', 'src/parser.ts', 'parse line one;\n'.repeat(60)),
  ai('The parser reads one line at a time.'),
  human('Also add a test for empty input'),
  ...readRound('c2', 'src/parser.test.ts', 'test case here;\n'.repeat(60)),
  ai('Added the test.'),
  human('Now run the whole suite'),
  ...readRound('c3', 'src/suite.ts', 'suite entry;\n'.repeat(60)),
  ai('All green.'),
];

interface Line {
  readonly call: number;
  readonly position: number;
  readonly messages: readonly { readonly speaker: string; readonly blocks: readonly unknown[] }[];
}

const plain = (entries: readonly IContent[]) =>
  entries.map((entry) => ({ speaker: entry.speaker, blocks: entry.blocks }));

let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'dense-sent-'));
});

afterEach(async () => {
  vi.restoreAllMocks();
  await rm(dir, { recursive: true, force: true });
});

async function replayTo(sentDir: string, id: ReplayPolicyId, contextLimit: number) {
  const prepared = await prepareReplay(importedSession(RECORDING), { tokenCounter: CHARS });
  const run = await replaySession(prepared, {
    policy: getReplayPolicy(id),
    contextLimit,
    tokenCounter: CHARS,
    sent: { dir: sentDir },
  });
  return { prepared, run };
}

async function linesOf(file: string): Promise<Line[]> {
  const text = await readFile(file, 'utf8');
  expect(text.endsWith('\n')).toBe(true);
  return text
    .slice(0, -1)
    .split('\n')
    .map((line) => JSON.parse(line) as Line);
}

describe('#33.6 sent log of a replay', () => {
  it('#33.6 one line per model call; each line holds exactly what the intent oracle was given', async () => {
    const given = vi.spyOn(IntentOracle.prototype, 'onModelCall');
    const { run } = await replayTo(dir, 'one-shot', 800);
    const lines = await linesOf(path.join(dir, 'fixture.one-shot.800.jsonl'));
    expect(run.report.compressions).toBeGreaterThan(0);
    expect(lines).toHaveLength(run.report.modelCalls);
    expect(given.mock.calls).toHaveLength(lines.length);
    lines.forEach((line, i) => {
      const [sent, position] = given.mock.calls[i] ?? [[], -1];
      expect(line.call).toBe(i + 1);
      expect(line.position).toBe(position);
      expect(line.messages).toEqual(JSON.parse(JSON.stringify(plain(sent))));
    });
    // The policy dropped entries: the log is what was sent, not the recording.
    expect(
      lines.some((line, i) => line.messages.length < (lines[i - 1]?.messages.length ?? 0)),
    ).toBe(true);
  });

  it("#33.6 an outside judge re-judging the lines alone reaches the report's intent verdicts", async () => {
    const { prepared, run } = await replayTo(dir, 'one-shot', 800);
    const lines = await linesOf(path.join(dir, 'fixture.one-shot.800.jsonl'));
    const judge = new IntentOracle(planIntent(prepared.plan.contents));
    for (const line of lines) judge.onModelCall(line.messages as IContent[], line.position);
    expect(run.report.intent?.messages).toBeGreaterThan(0);
    expect(judge.totals()).toEqual(run.report.intent);
    // The judge reads the lines and nothing else: lines without the user's entries lose them all.
    const blind = new IntentOracle(planIntent(prepared.plan.contents));
    for (const line of lines) {
      const messages = (line.messages as IContent[]).filter((entry) => entry.speaker !== 'human');
      blind.onModelCall(messages, line.position);
    }
    expect(blind.totals().lost).toBe(run.report.intent?.messages);
  });

  it('#33.6 none: each call was sent the whole recording before its reply; no window in the name', async () => {
    const { prepared } = await replayTo(dir, 'none', 1_500);
    expect(await readdir(dir)).toEqual(['fixture.none.jsonl']);
    const lines = await linesOf(path.join(dir, 'fixture.none.jsonl'));
    const replies = prepared.plan.contents.flatMap((entry, i) =>
      entry.speaker === 'ai' ? [i] : [],
    );
    expect(lines.map((line) => line.messages)).toEqual(
      replies.map((at) => JSON.parse(JSON.stringify(plain(RECORDING.slice(0, at)))) as unknown),
    );
  });

  it('#33.6 a second run replaces the file; metadata is not part of a message', async () => {
    await replayTo(dir, 'none', 1_500);
    await replayTo(dir, 'none', 1_500);
    const lines = await linesOf(path.join(dir, 'fixture.none.jsonl'));
    expect(lines.map((line) => line.call)).toEqual([1, 2, 3, 4, 5, 6]);
    const entry: IContent = { ...human('hi'), metadata: { id: 'x', timestamp: 1 } };
    expect(sentLine(2, 7, [entry])).toBe(
      `${JSON.stringify({ call: 2, position: 7, messages: [{ speaker: 'human', blocks: entry.blocks }] })}\n`,
    );
  });

  it('#33.6 a directory that cannot be created is a SentLogError with a stable code, before any call', async () => {
    const file = path.join(dir, 'a-file');
    await writeFile(file, 'not a directory');
    const given = vi.spyOn(IntentOracle.prototype, 'onModelCall');
    const failed = await replayTo(path.join(file, 'sent'), 'none', 1_500).catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(SentLogError);
    expect(failed).toMatchObject({ code: 'REPLAY_SENT_UNWRITABLE' });
    expect((failed as Error).message).toMatch(/^cannot write what was sent to .*a-file\/sent: /);
    expect((failed as Error).message).not.toContain('\n');
    expect(given).not.toHaveBeenCalled();
  });

  it('#33.6 a write that fails midway is cut back: the file keeps only whole lines', async () => {
    const file = path.join(dir, 'torn.jsonl');
    const handle = await open(file, 'w');
    let writes = 0;
    const failing = {
      write: async (buffer: Buffer, offset: number, length: number, position: number) => {
        writes += 1;
        // The second line: half of it reaches the disk, then the disk is full.
        if (writes === 2) return handle.write(buffer, offset, Math.floor(length / 2), position);
        if (writes === 3) throw Object.assign(new Error('no space left'), { code: 'ENOSPC' });
        return handle.write(buffer, offset, length, position);
      },
      truncate: (length: number) => handle.truncate(length),
      close: () => handle.close(),
    };
    const log = new SentLog(file, failing);
    await log.record([human('first call')], 1);
    await expect(log.record([human('second call')], 2)).rejects.toMatchObject({
      code: 'REPLAY_SENT_UNWRITABLE',
    });
    await log.close();
    expect(await readFile(file, 'utf8')).toBe(sentLine(1, 1, [human('first call')]));
  });

  it('#33.6 a given transcript name replaces the file name; later sessions of a file get #n', async () => {
    const log = await openSentLog(
      { dir: path.join(dir, 'nested', 'out'), name: 'b~2' },
      { file: '/x/b.traj.json', sessionIndex: 1, policy: 'one-shot', window: 32_000 },
    );
    await log.close();
    expect(await readdir(path.join(dir, 'nested', 'out'))).toEqual(['b~2#1.one-shot.32k.jsonl']);
    const plainName = await openSentLog(
      { dir },
      { file: '/x/b.traj.json', sessionIndex: 0, policy: 'none', window: null },
    );
    await plainName.close();
    expect(await readdir(dir)).toContain('b.traj.none.jsonl');
  });
});
