import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  createAiMessage,
  createToolResponse,
  createUserMessage,
  serializeSessionContent,
  serializeSessionHeader,
  toolCallBlock,
  type IContent,
} from '@dense/core';
import { captureIO } from '../test-utils/captureIO.js';
import { main } from '../main.js';
import { replayCommand } from './replay.js';

const A_V1 = 'export const a = 1;\n'.repeat(40);
const A_V2 = 'export const a = 2;\n'.repeat(40);

function round(id: string, name: string, parameters: unknown, result: string): IContent[] {
  return [
    createAiMessage([toolCallBlock(id, name, parameters)]),
    createToolResponse({ callId: id, toolName: name, result }),
  ];
}

/** A small Dense session recording of our own: read, edit, read again. */
function recording(): string {
  const contents: IContent[] = [
    createUserMessage('Set a to 2 in src/a.ts'),
    ...round('c0', 'read_file', { file_path: 'src/b.ts' }, 'export const b = 0;\n'.repeat(20)),
    ...round('c1', 'read_file', { file_path: 'src/a.ts' }, A_V1),
    ...round('c2', 'replace', { file_path: 'src/a.ts', old_string: '1', new_string: '2' }, 'ok'),
    ...round('c3', 'read_file', { file_path: 'src/a.ts' }, A_V2),
    createAiMessage('Done.'),
  ];
  const header = serializeSessionHeader({
    sessionId: 'fixture',
    startedAt: '2026-11-22T10:00:00.000Z',
    workspaceRoot: '/proj',
    provider: 'scripted',
    model: 'scripted-model',
  });
  return header + contents.map(serializeSessionContent).join('');
}

let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'dense-replay-cli-'));
  await writeFile(path.join(dir, 'session.jsonl'), recording());
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function run(...argv: string[]) {
  const { io, out } = captureIO(dir);
  const code = await main({ argv, io, subcommands: [replayCommand] });
  return { code, ...out };
}

describe('dense replay', () => {
  it("--json prints {sessions, totals} with the issue's fields; high-density reclaims the stale read", async () => {
    const { code, stdout, stderr } = await run('replay', path.join(dir, 'session.jsonl'), '--json');
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const parsed = JSON.parse(stdout) as {
      sessions: Record<string, unknown>[];
      totals: Record<string, unknown>;
    };
    const [session] = parsed.sessions;
    for (const key of [
      'file',
      'format',
      'turns',
      'toolCalls',
      'strategy',
      'cumulativeInputTokens',
      'peakContextTokens',
      'finalContextTokens',
      'compressions',
      'firstCompressionTurn',
      'densityRemovedTokens',
      'staleTokens',
      'staleReclaimedTokens',
      'liveLostTokens',
      'historyRewrites',
      'cacheWeightedInputTokens',
      'cacheCost',
      'timedModelCalls',
      'vsNone',
      'densityOverheadMs',
    ]) {
      expect(session).toHaveProperty(key);
    }
    expect(session).toMatchObject({
      format: 'dense-session',
      strategy: 'high-density',
      turns: 1,
      toolCalls: 4,
      liveLostTokens: 0,
    });
    const stale = session?.staleTokens as { reads: number };
    expect(stale.reads).toBeGreaterThan(200);
    expect(session?.staleReclaimedTokens).toMatchObject({ reads: stale.reads });
    expect(parsed.totals).toMatchObject({ sessions: 1, modelCalls: 5 });
  });

  it('a directory: a row per session and a total; files that are no transcript are skipped on stderr', async () => {
    await writeFile(path.join(dir, 'notes.txt'), 'just some notes\n');
    await writeFile(path.join(dir, 'again.jsonl'), recording());
    const { code, stdout, stderr } = await run('replay', dir, '--strategy', 'none');
    expect(code).toBe(0);
    expect(stderr).toMatch(/^dense replay: skipped .*notes\.txt: /m);
    const lines = stdout.split('\n');
    expect(lines[0]).toMatch(/^session\s+format\s+calls\s+input/);
    expect(
      lines.filter((line) => /^(again|session)\.jsonl\s+dense-session/.test(line)),
    ).toHaveLength(2);
    expect(stdout).toMatch(/^total\s/m);
    expect(stdout).toMatch(/sessions \(compressed\)\s+2 \(0\)/);
  });

  it('#12.9 a truncated .jsonl still replays, with a warning on stderr naming the torn line', async () => {
    const torn = path.join(dir, 'torn.jsonl');
    await writeFile(torn, `${recording()}{"kind":"content","speaker":"ai","blo`);
    const { code, stdout, stderr } = await run('replay', torn, '--json');
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toHaveProperty('sessions');
    expect(stderr).toMatch(
      /^dense replay: warning: .*torn\.jsonl: 1 record could not be read and was left out \(first: line 12: /,
    );
  });

  it('one session in human form: every figure in one table', async () => {
    const { code, stdout } = await run(
      'replay',
      path.join(dir, 'session.jsonl'),
      '--strategy',
      'middle-out',
      '--context-limit',
      '64000',
    );
    expect(code).toBe(0);
    expect(stdout).toMatch(/strategy \/ context limit\s+middle-out \/ 64,000/);
    expect(stdout).toMatch(/stale reads reclaimed\s+0 of [\d,]+ \(0\.0%\)/);
    expect(stdout).toMatch(/summaries written by\s+offline summarizer/);
  });

  it('bad usage is one line on stderr and exit code 2', async () => {
    const bogus = await run('replay', dir, '--strategy', 'bogus');
    expect(bogus.code).toBe(2);
    expect(bogus.stderr).toMatch(/Unknown replay strategy 'bogus'. Use one of: none, middle-out/);
    const flagKey = await run('replay', dir, '--set', 'context-limit=5');
    expect(flagKey.code).toBe(2);
    expect(flagKey.stderr).toBe(
      'dense replay: use --context-limit instead of --set context-limit.\n',
    );
    const badValue = await run('replay', dir, '--set', 'compression.density.recencyRetention=-1');
    expect(badValue.code).toBe(2);
    const missing = await run('replay', path.join(dir, 'nope'));
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/does not exist/);
  });

  it('--set reaches the replayed session (recency pruning on)', async () => {
    const plain = JSON.parse((await run('replay', dir, '--json')).stdout) as {
      totals: { densityRemovedTokens: { recency: number } };
    };
    const withRecency = JSON.parse(
      (
        await run(
          'replay',
          dir,
          '--json',
          '--set',
          'compression.density.recencyPruning=true',
          '--set',
          'compression.density.recencyRetention=1',
        )
      ).stdout,
    ) as { totals: { densityRemovedTokens: { recency: number } } };
    expect(plain.totals.densityRemovedTokens.recency).toBe(0);
    expect(withRecency.totals.densityRemovedTokens.recency).toBeGreaterThan(0);
  });
});
