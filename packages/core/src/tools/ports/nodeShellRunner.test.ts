import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { nodeShellRunner } from './nodeShellRunner.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'dense-shell-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const run = (command: string, timeoutMs = 10_000, signal?: AbortSignal) =>
  nodeShellRunner.run({
    command,
    cwd: dir,
    timeoutMs,
    maxOutputBytes: 64 * 1024,
    ...(signal ? { signal } : {}),
  });

// Real processes, one killed after its own 1 s timeout: up to 2 s a test under load.
describe('nodeShellRunner', { timeout: 30_000 }, () => {
  it('reports the exit code and the interleaved output', async () => {
    expect(await run('echo a; echo b >&2; exit 4')).toEqual({
      kind: 'exited',
      exitCode: 4,
      output: { text: 'a\nb\n', totalBytes: 4, omittedBytes: 0 },
    });
  });

  it('closes stdin, so a command waiting for input ends at once', async () => {
    expect(await run('cat')).toMatchObject({ kind: 'exited', exitCode: 0 });
  });

  it('kills the whole process group on timeout, children included', async () => {
    // The child would write a file one second later; the group kill must prevent that.
    const result = await run(`(sleep 1; echo survived > "${dir}/child") & sleep 30`, 200);
    expect(result.kind).toBe('timeout');
    await new Promise((resolve) => setTimeout(resolve, 1500));
    await expect(readFile(path.join(dir, 'child'), 'utf8')).rejects.toThrow();
  }, 10_000);

  it('stops on abort and says so', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    expect((await run('sleep 30', 10_000, controller.signal)).kind).toBe('aborted');
  });

  it('does not wait for a background process that keeps the output pipe open', async () => {
    expect(await run('sleep 20 & echo done')).toMatchObject({
      kind: 'exited',
      exitCode: 0,
      output: { text: 'done\n' },
    });
  });

  it('reports a command killed by a signal', async () => {
    expect(await run('kill -TERM $$')).toMatchObject({ kind: 'killed', signal: 'SIGTERM' });
  });

  it('reports a working directory that does not exist as a failed spawn', async () => {
    const result = await nodeShellRunner.run({
      command: 'true',
      cwd: path.join(dir, 'missing'),
      timeoutMs: 1000,
      maxOutputBytes: 100,
    });
    expect(result.kind).toBe('spawn-failed');
  });

  it('#12.4 a command never sees the provider keys or the variables the SDKs read', async () => {
    const names = ['OPENAI_API_KEY', 'ANTHROPIC_API_KEY', 'GEMINI_API_KEY', 'ANTHROPIC_AUTH_TOKEN'];
    const saved = names.map((name) => [name, process.env[name]] as const);
    for (const name of names) process.env[name] = `secret-${name}`;
    process.env.DENSE_TEST_VISIBLE = 'visible';
    try {
      const result = await run('env');
      expect(result.kind).toBe('exited');
      const text = result.kind === 'exited' ? result.output.text : '';
      expect(text).not.toContain('secret-');
      expect(text).toContain('DENSE_TEST_VISIBLE=visible');
      expect(text).toContain('PAGER=cat');
    } finally {
      for (const [name, value] of saved) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
      delete process.env.DENSE_TEST_VISIBLE;
    }
  });
});
