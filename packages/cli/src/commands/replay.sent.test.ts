/** `dense replay --sent DIR`: what each policy sent to each model call, one JSONL line per call. */
import { mkdir, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { recordingsDir, runReplay } from '../test-utils/replayCli.js';
import { recording } from '../test-utils/replayFixture.js';
import { sentNames } from './replaySent.js';

let dir: string;

beforeEach(async () => {
  dir = await recordingsDir('dense-replay-sent-', { 'session.jsonl': recording() });
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const run = (...argv: string[]) => runReplay(dir, argv);

interface Line {
  readonly call: number;
  readonly position: number;
  readonly messages: readonly { readonly speaker: string; readonly blocks: unknown[] }[];
}

async function linesOf(file: string): Promise<Line[]> {
  const text = await readFile(file, 'utf8');
  return text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Line);
}

describe('#33.6 dense replay --sent', () => {
  it('#33.6 writes one file per policy run, one line per model call, the messages as sent', async () => {
    const out = path.join(dir, 'sent');
    const { code, stdout, stderr } = await run(
      'replay',
      path.join(dir, 'session.jsonl'),
      '--json',
      '--sent',
      out,
    );
    expect(code).toBe(0);
    expect(stderr).toBe(`dense replay: what each model call was sent written to ${out}\n`);
    expect((await readdir(out)).sort()).toEqual([
      'session.high-density.128k.jsonl',
      'session.none.jsonl',
      'session.recorded.jsonl',
    ]);
    const [report] = (JSON.parse(stdout) as { sessions: { modelCalls: number }[] }).sessions;
    const lines = await linesOf(path.join(out, 'session.high-density.128k.jsonl'));
    expect(lines).toHaveLength(report?.modelCalls ?? -1);
    expect(lines.map((line) => line.call)).toEqual([1, 2, 3, 4, 5]);
    expect(lines[0]?.messages).toEqual([
      { speaker: 'human', blocks: [{ type: 'text', text: 'Set a to 2 in src/a.ts' }] },
    ]);
    // Each later call was sent what the earlier one was, its reply and the tool's answer.
    const none = await linesOf(path.join(out, 'session.none.jsonl'));
    expect(none.map((line) => line.messages.length)).toEqual([1, 3, 5, 7, 9]);
    expect(none.map((line) => line.position)).toEqual(
      [...none.map((line) => line.position)].sort((a, b) => a - b),
    );
  });

  it('#33.6 two transcripts of the same name in a directory get distinct files', async () => {
    await mkdir(path.join(dir, 'more'));
    await writeFile(path.join(dir, 'more', 'session.jsonl'), recording());
    const out = path.join(dir, 'out');
    const { code } = await run('replay', dir, '--strategy', 'none', '--sent', out);
    expect(code).toBe(0);
    expect((await readdir(out)).sort()).toEqual([
      'session.none.jsonl',
      'session.recorded.jsonl',
      'session~2.none.jsonl',
      'session~2.recorded.jsonl',
    ]);
    expect(sentNames(['/a/x.jsonl', '/b/x.jsonl', '/c/x.json', '/c/y.jsonl'])).toEqual(
      new Map([
        ['/a/x.jsonl', 'x'],
        ['/b/x.jsonl', 'x~2'],
        ['/c/x.json', 'x~3'],
        ['/c/y.jsonl', 'y'],
      ]),
    );
  });

  it('#33.6 a directory that cannot be written: one line, exit 2, no stack trace', async () => {
    const blocker = path.join(dir, 'taken');
    await writeFile(blocker, 'a file, not a directory');
    for (const target of [path.join(dir, 'session.jsonl'), dir]) {
      const { code, stdout, stderr } = await run('replay', target, '--sent', blocker);
      expect(code).toBe(2);
      expect(stdout).toBe('');
      expect(stderr).toMatch(/^dense replay: cannot write what was sent to .*taken: [^\n]+\n$/);
      expect(stderr).not.toMatch(/\n\s+at /);
    }
  });

  it('#33.6 --sent needs a directory', async () => {
    const { code, stderr } = await run('replay', path.join(dir, 'session.jsonl'), '--sent');
    expect(code).toBe(2);
    expect(stderr).toMatch(/sent/);
  });
});
