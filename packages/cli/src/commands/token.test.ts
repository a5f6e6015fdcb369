import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FileTokenStore } from '@dense/core';
import type { CliIO } from '../args/CliSubcommand.js';
import { parseCliArgs } from '../args/parseCliArgs.js';
import { CLI_SUBCOMMANDS } from '../args/subcommands.js';
import { tokenCommand } from './token.js';

const homes: string[] = [];
afterEach(async () => {
  for (const home of homes.splice(0)) await rm(home, { recursive: true, force: true });
});

async function textIO(env: NodeJS.ProcessEnv = {}): Promise<{
  io: CliIO;
  out: () => string;
  err: () => string;
  home: string;
}> {
  const home = await mkdtemp(path.join(tmpdir(), 'dense-home-'));
  homes.push(home);
  const stdout: string[] = [];
  const stderr: string[] = [];
  const sink = (lines: string[]) =>
    ({
      isTTY: false,
      write: (chunk: string) => lines.push(String(chunk)) > 0,
    }) as unknown as NodeJS.WriteStream;
  const io: CliIO = {
    stdin: process.stdin,
    stdout: sink(stdout),
    stderr: sink(stderr),
    env: { DENSE_HOME: home, ...env },
    cwd: home,
  };
  return { io, out: () => stdout.join(''), err: () => stderr.join(''), home };
}

const tokenFile = (home: string) => path.join(home, 'gateway', 'tokens.json');

describe('dense token', () => {
  it('#36.4 is registered: `dense token create ada` parses to the token subcommand', async () => {
    const options = { cwd: '/', subcommands: CLI_SUBCOMMANDS };
    const parsed = await parseCliArgs(
      ['token', 'create', 'ada', '--state', 'redis://h:1'],
      options,
    );
    expect(parsed).toMatchObject({
      kind: 'subcommand',
      subcommand: tokenCommand,
      args: { action: 'create', target: 'ada', state: 'redis://h:1' },
    });
    const bad = await parseCliArgs(['token', 'burn'], options);
    expect(bad).toMatchObject({ kind: 'error' });
  });

  it('#36.4 create prints the token once; list shows user, id and time but never the token; revoke removes it', async () => {
    const { io, out, err, home } = await textIO();
    expect(await tokenCommand.run({ action: 'create', target: 'ada' }, io)).toBe(0);
    const token = out().trim();
    expect(token).toMatch(/^dense_[A-Za-z0-9_-]{43}$/);
    expect(err()).toMatch(
      /^dense token: tok_[0-9a-f]{10} for ada, kept as a hash in .*tokens\.json; the token is shown only now\n$/,
    );
    const store = new FileTokenStore({ file: tokenFile(home) });
    expect(await store.userOf(token)).toBe('ada');
    expect(await readFile(tokenFile(home), 'utf8')).not.toContain(token);

    const listed = await textIO({ DENSE_HOME: home });
    expect(await tokenCommand.run({ action: 'list' }, listed.io)).toBe(0);
    const id = /tok_[0-9a-f]{10}/.exec(err())?.[0] ?? '';
    expect(listed.out()).toMatch(
      new RegExp(`^USER  ID +CREATED\\nada   ${id}  \\d{4}-\\d\\d-\\d\\dT`),
    );
    expect(listed.out()).not.toContain(token);

    const revoked = await textIO({ DENSE_HOME: home });
    expect(await tokenCommand.run({ action: 'revoke', target: id }, revoked.io)).toBe(0);
    expect(revoked.out()).toBe(`revoked ${id} (ada)\n`);
    expect(await store.userOf(token)).toBeUndefined();
  });

  it('#36.4 revoke with nothing to revoke: exit 1 and one line', async () => {
    const { io, err } = await textIO();
    expect(await tokenCommand.run({ action: 'revoke', target: 'nobody' }, io)).toBe(1);
    expect(err()).toMatch(/^dense token: no token id or user 'nobody' in .*\n$/);
  });

  it('#36.4 bad usage (no user, a bad user name, a state URL that is not Redis): exit 2 and one line', async () => {
    for (const args of [
      { action: 'create' },
      { action: 'create', target: 'a b' },
      { action: 'list', state: 'http://example.test' },
    ]) {
      const { io, err, out } = await textIO();
      expect(await tokenCommand.run(args, io)).toBe(2);
      expect(err()).toMatch(/^dense token: [^\n]+\n$/);
      expect(out()).toBe('');
    }
  });

  it('#36.4 a bad token file: exit 1, one actionable line, no stack trace', async () => {
    const { io, err, home } = await textIO();
    await tokenCommand.run({ action: 'create', target: 'ada' }, io);
    await writeFile(tokenFile(home), '{ broken');
    const again = await textIO({ DENSE_HOME: home });
    expect(await tokenCommand.run({ action: 'list' }, again.io)).toBe(1);
    expect(again.err()).toMatch(
      /^dense token: the token file .* is not valid \(not JSON: .*\): .*dense token create <user>`\n$/,
    );
    expect(again.err()).not.toMatch(/\n\s+at /);
    expect(err()).not.toContain('at ');
  });
});
