import { spawn } from 'node:child_process';
import { PassThrough } from 'node:stream';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { RecallArchive, recallMissingMessage, type ArchiveLookup } from '@dense/core';
import { REPO_ROOT } from '../test-utils/builtBinary.js';
import { runRecallBin } from './recallBin.js';
import { RECALL_EXIT } from './recallExit.js';
import type { RecallLookup } from './runRecall.js';

const ID = 'r0123456789';
const homes: string[] = [];
afterEach(async () => {
  for (const home of homes.splice(0)) await rm(home, { recursive: true, force: true });
});

async function denseHome(originals: Readonly<Record<string, string>>): Promise<string> {
  const home = await mkdtemp(path.join(tmpdir(), 'dense-recall-'));
  homes.push(home);
  const entries = Object.entries(originals).map(([id, text]) => ({ id, text }));
  await new RecallArchive({ dir: path.join(home, 'recall') }).put('session:S:1', entries);
  return home;
}

/** An archive in memory: the ids given, everything else unknown. */
function memoryLookup(originals: Readonly<Record<string, string>>): RecallLookup {
  return {
    dir: '/memory',
    lookup: (id): Promise<ArchiveLookup> => {
      const text = originals[id];
      return Promise.resolve(
        text === undefined
          ? { kind: 'missing', reason: 'unknown' }
          : { kind: 'found', bytes: Buffer.from(text, 'utf8') },
      );
    },
    missingMessage: recallMissingMessage,
  };
}

async function run(argv: readonly string[], archive?: RecallLookup, env: NodeJS.ProcessEnv = {}) {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  stdout.on('data', (chunk: Buffer) => out.push(chunk));
  stderr.on('data', (chunk: Buffer) => err.push(chunk));
  const code = await runRecallBin(argv, {
    stdout: stdout as unknown as NodeJS.WriteStream,
    stderr: stderr as unknown as NodeJS.WriteStream,
    env,
    ...(archive === undefined ? {} : { archive }),
    exit: (exitCode) => {
      throw new Error(`exit ${exitCode}`);
    },
  });
  return { code, stdout: Buffer.concat(out), stderr: Buffer.concat(err).toString('utf8') };
}

const MESSAGES = [
  { role: 'user', content: 'Count the apples in basket.txt' },
  {
    role: 'assistant',
    content: [
      { type: 'tool_use', id: 'toolu_9', name: 'Read', input: { file_path: 'basket.txt' } },
    ],
  },
  {
    role: 'user',
    content: [{ type: 'tool_result', tool_use_id: 'toolu_9', content: 'apple\npear\napple' }],
  },
]
  .map((message) => JSON.stringify(message))
  .join(',');

describe('dense recall (fast entry point)', () => {
  it('#34.3 a message run prints as a transcript; --json prints the exact stored bytes', async () => {
    const archive = memoryLookup({ [ID]: MESSAGES });
    const shown = await run([ID], archive);
    expect(shown).toMatchObject({ code: 0, stderr: '' });
    expect(shown.stdout.toString('utf8')).toBe(
      [
        '#1 user',
        'Count the apples in basket.txt',
        '',
        '#2 assistant',
        'call Read [toolu_9] {"file_path":"basket.txt"}',
        '',
        '#3 user',
        'result Read [toolu_9]',
        'apple',
        'pear',
        'apple',
        '',
      ].join('\n'),
    );
    const raw = await run([ID, '--json'], archive);
    expect(raw).toMatchObject({ code: 0, stderr: '' });
    expect(raw.stdout.equals(Buffer.from(MESSAGES, 'utf8'))).toBe(true);
  });

  it('#34.3 --grep, --lines and --head narrow the transcript; no match is exit 5 with a note', async () => {
    const archive = memoryLookup({ [ID]: MESSAGES });
    const grep = await run([ID, '--grep', 'APPLE', '--context', '0'], archive);
    expect(grep).toMatchObject({ code: 0, stderr: '' });
    expect(grep.stdout.toString('utf8')).toBe(
      '2:Count the apples in basket.txt\n9:apple\n11:apple\n',
    );
    const lines = await run([ID, '--lines', '7:8'], archive);
    expect(lines.stdout.toString('utf8')).toBe('#3 user\nresult Read [toolu_9]\n');
    const head = await run([ID, '--head', '1'], archive);
    expect(head.stdout.toString('utf8')).toBe('#1 user\n');
    const none = await run([ID, '--grep', 'banana'], archive);
    expect(none).toMatchObject({ code: RECALL_EXIT.noMatch, stdout: Buffer.alloc(0) });
    expect(none.stderr).toBe(`dense recall: no line of ${ID} matches /banana/i (11 lines)\n`);
  });

  it('#34.3 plain text keeps its exact bytes (no newline added) unless a view is asked for', async () => {
    const text = 'Grüße\r\nzwei\r\nno newline at the end';
    const archive = memoryLookup({ [ID]: text });
    expect((await run([ID], archive)).stdout.equals(Buffer.from(text, 'utf8'))).toBe(true);
    expect((await run([ID, '--grep', 'zwei'], archive)).stdout.toString('utf8')).toBe(
      '1-Grüße\r\n2:zwei\r\n3-no newline at the end\n',
    );
  });

  it('#34.3 an unknown id keeps its message and exit 1, read from the archive under DENSE_HOME', async () => {
    const home = await denseHome({ [ID]: 'kept' });
    const unknown = await run(['rabcdefabcd'], undefined, { DENSE_HOME: home });
    expect(unknown).toMatchObject({ code: RECALL_EXIT.unknown, stdout: Buffer.alloc(0) });
    expect(unknown.stderr).toBe(
      'dense recall: recall id rabcdefabcd is unknown: no original with this id is kept here\n',
    );
    const found = await run([ID], undefined, { DENSE_HOME: home });
    expect(found).toMatchObject({ code: 0, stderr: '' });
    expect(found.stdout.toString('utf8')).toBe('kept');
    expect((await run(['../etc/passwd'], undefined, { DENSE_HOME: home })).code).toBe(
      RECALL_EXIT.malformed,
    );
  });

  it('#34.3 --help documents the views and exit codes; bad usage is exit 2 on one line', async () => {
    const help = await run(['--help'], memoryLookup({}));
    expect(help.code).toBe(0);
    const text = help.stdout.toString('utf8');
    for (const flag of [
      '--grep PATTERN',
      '--lines A:B',
      '--head N',
      '--json',
      '5 --grep matched no line',
    ]) {
      expect(text).toContain(flag);
    }
    const bad = await run([ID, '--lines', 'two'], memoryLookup({}));
    expect(bad.code).toBe(RECALL_EXIT.malformed);
    expect(bad.stderr).toMatch(/^dense recall: --lines takes A:B .*\(see dense recall --help\)\n$/);
  });
});

describe('dense recall through the dense executable (source, under tsx)', () => {
  it('#34.3 a pipe closed early (dense recall <id> | head -c 100) exits 0 with nothing on stderr', async () => {
    const many = Array.from({ length: 3000 }, (_, index) =>
      JSON.stringify({
        role: index % 2 ? 'assistant' : 'user',
        content: `message ${index} `.repeat(40),
      }),
    ).join(',');
    const home = await denseHome({ [ID]: many });
    const child = spawn(
      process.execPath,
      [
        path.join(REPO_ROOT, 'node_modules/tsx/dist/cli.mjs'),
        '--tsconfig',
        path.join(REPO_ROOT, 'packages/cli/tsconfig.json'),
        path.join(REPO_ROOT, 'packages/cli/src/index.ts'),
        'recall',
        ID,
      ],
      {
        env: { PATH: process.env.PATH ?? '', DENSE_HOME: home },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    let first = '';
    child.stdout.once('data', (chunk: Buffer) => {
      first = chunk.toString('utf8').slice(0, 100);
      child.stdout.destroy();
    });
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(first).toMatch(/^#1 user\nmessage 0 /);
    expect(stderr).toBe('');
    expect(code).toBe(0);
  }, 60_000);
});
