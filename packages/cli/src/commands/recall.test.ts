import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { RecallArchive } from '@dense/core';
import type { CliIO } from '../args/CliSubcommand.js';
import { parseCliArgs } from '../args/parseCliArgs.js';
import { CLI_SUBCOMMANDS } from '../args/subcommands.js';
import { RECALL_EXIT, recallCommand, runRecall } from './recall.js';

const homes: string[] = [];
afterEach(async () => {
  for (const home of homes.splice(0)) await rm(home, { recursive: true, force: true });
});

/** A CliIO under a temp DENSE_HOME whose stdout keeps the raw bytes written. */
async function bytesIO(): Promise<{ io: CliIO; stdout: Buffer[]; stderr: string[]; home: string }> {
  const home = await mkdtemp(path.join(tmpdir(), 'dense-home-'));
  homes.push(home);
  const stdout: Buffer[] = [];
  const stderr: string[] = [];
  const sink = (write: (chunk: Buffer | string) => void) =>
    ({
      isTTY: false,
      write: (chunk: Buffer | string, done?: (error?: Error | null) => void) => {
        write(chunk);
        done?.(null);
        return true;
      },
    }) as unknown as NodeJS.WriteStream;
  const io: CliIO = {
    stdin: process.stdin,
    stdout: sink((chunk) => stdout.push(Buffer.from(chunk))),
    stderr: sink((chunk) => stderr.push(String(chunk))),
    env: { DENSE_HOME: home },
    cwd: home,
  };
  return { io, stdout, stderr, home };
}

const TEXT = 'Grüße — ✓ 🎉\r\n\tline two\r\nno newline at the end';
const DAY = 24 * 60 * 60_000;

describe('dense recall <id>', () => {
  it('#24.2 writes the exact bytes kept under DENSE_HOME, adds no newline, exit 0', async () => {
    const { io, stdout, stderr, home } = await bytesIO();
    await new RecallArchive({ dir: path.join(home, 'recall') }).put('session:S:1', [
      { id: 'r0123456789', text: TEXT },
    ]);
    expect(await recallCommand.run({ id: 'r0123456789' }, io)).toBe(RECALL_EXIT.found);
    expect(Buffer.concat(stdout).equals(Buffer.from(TEXT, 'utf8'))).toBe(true);
    expect(stderr).toEqual([]);
  });

  it('#24.2 an unknown id: exit 1 and one line on stderr naming it, nothing on stdout', async () => {
    const { io, stdout, stderr } = await bytesIO();
    expect(await recallCommand.run({ id: 'rabcdefabcd' }, io)).toBe(1);
    expect(stdout).toEqual([]);
    expect(stderr.join('')).toBe(
      'dense recall: recall id rabcdefabcd is unknown: no original with this id is kept here\n',
    );
  });

  it('#24.2 a malformed id: exit 2 and the shape an id has', async () => {
    const { io, stderr } = await bytesIO();
    expect(await recallCommand.run({ id: '../etc/passwd' }, io)).toBe(2);
    expect(stderr.join('')).toMatch(/^dense recall: '\.\.\/etc\/passwd' is not a recall id .*\n$/);
  });

  it('#24.2 an expired id: exit 3 and says it expired', async () => {
    const { io, stderr, home } = await bytesIO();
    const clock = { now: Date.UTC(2026, 0, 1) };
    const archive = new RecallArchive({ dir: path.join(home, 'recall'), now: () => clock.now });
    await archive.put('c', [{ id: 'r0123456789', text: TEXT }]);
    clock.now += 8 * DAY;
    expect(await runRecall('r0123456789', io, archive)).toBe(RECALL_EXIT.gone);
    expect(stderr.join('')).toContain('recall id r0123456789 has expired');
  });

  it('#24.2 an unreadable archive: exit 4 and the reason', async () => {
    const { io, stderr, home } = await bytesIO();
    const archive = new RecallArchive({ dir: path.join(home, 'recall') });
    Object.assign(archive, {
      lookup: () => Promise.reject(new Error('EACCES: permission denied')),
    });
    expect(await runRecall('r0123456789', io, archive)).toBe(RECALL_EXIT.unreadable);
    expect(stderr.join('')).toContain('EACCES: permission denied');
  });

  it('#24.2 `dense recall` and `dense mcp` are subcommands; a missing id is a usage error', async () => {
    const parsed = await parseCliArgs(['recall', 'r0123456789'], {
      cwd: '/',
      subcommands: CLI_SUBCOMMANDS,
    });
    expect(parsed.kind === 'subcommand' && parsed.args.id).toBe('r0123456789');
    const mcp = await parseCliArgs(['mcp'], { cwd: '/', subcommands: CLI_SUBCOMMANDS });
    expect(mcp.kind === 'subcommand' && mcp.subcommand.command).toBe('mcp');
    const missing = await parseCliArgs(['recall'], { cwd: '/', subcommands: CLI_SUBCOMMANDS });
    expect(missing.kind).toBe('error');
  });

  it('#34.3 the subcommand `main` runs takes the same views and checks them the same way', async () => {
    const { io, stdout, stderr, home } = await bytesIO();
    await new RecallArchive({ dir: path.join(home, 'recall') }).put('session:S:1', [
      { id: 'r0123456789', text: TEXT },
    ]);
    const parsed = await parseCliArgs(
      ['recall', 'r0123456789', '--grep', 'TWO', '--context', '0'],
      {
        cwd: '/',
        subcommands: CLI_SUBCOMMANDS,
      },
    );
    if (parsed.kind !== 'subcommand') throw new Error(parsed.kind);
    expect(await parsed.subcommand.run(parsed.args, io)).toBe(RECALL_EXIT.found);
    expect(Buffer.concat(stdout).toString('utf8')).toBe('2:\tline two\r\n');
    const bad = await parseCliArgs(['recall', 'r0123456789', '--lines', '3:1'], {
      cwd: '/',
      subcommands: CLI_SUBCOMMANDS,
    });
    if (bad.kind !== 'subcommand') throw new Error(bad.kind);
    expect(await bad.subcommand.run(bad.args, io)).toBe(RECALL_EXIT.malformed);
    expect(stderr.join('')).toMatch(/^dense recall: --lines takes A:B/);
  });
});
