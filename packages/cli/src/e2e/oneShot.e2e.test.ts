/**
 * `dense -p` and piped prompts through the real built binary against the mock server process:
 * the answer alone on stdout and exit codes 0 (success), 1 (failed turn) and 2 (bad usage).
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt } from '../test-utils/builtBinary.js';
import { runDensePiped, startMockServerProcess } from '../test-utils/processDrivers.js';

const notBuilt = await ensureBuilt();

describe.skipIf(notBuilt !== undefined)('dense -p (end to end)', () => {
  let base: string;
  let workspace: string;
  let env: NodeJS.ProcessEnv;
  const stops: (() => Promise<void>)[] = [];

  beforeAll(async () => {
    base = await mkdtemp(path.join(tmpdir(), 'dense-e2e-p-'));
    workspace = path.join(base, 'ws');
    await mkdir(workspace);
    await writeFile(path.join(workspace, 'a.txt'), 'alpha\n');
    env = { DENSE_HOME: path.join(base, 'home') };
  });

  afterAll(async () => {
    for (const stop of stops) await stop();
    await rm(base, { recursive: true, force: true });
  });

  async function server(replies: unknown[]): Promise<string> {
    const started = await startMockServerProcess(base, { replies });
    stops.push(started.stop);
    return `${started.url}/v1`;
  }

  it('reads the prompt from piped stdin, prints only the answer, exit 0', async () => {
    const url = await server([
      {
        kind: 'stream',
        toolCalls: [{ id: 'c1', name: 'read_file', arguments: { file_path: 'a.txt' } }],
      },
      { kind: 'stream', text: ['It says ', 'alpha.'] },
    ]);
    const result = await runDensePiped({
      args: ['--base-url', url],
      cwd: workspace,
      env,
      input: 'what does a.txt say?\n',
    });
    expect(result).toMatchObject({ code: 0, stdout: 'It says alpha.\n' });
    expect(result.stderr).toContain('→ read_file a.txt');
  }, 60_000);

  it('-p and piped text are combined into one prompt', async () => {
    const url = await server([{ kind: 'stream', text: 'Summarized.' }]);
    const result = await runDensePiped({
      args: ['--base-url', url, '-p', 'Summarize this:'],
      cwd: workspace,
      env,
      input: 'some log text',
    });
    expect(result).toMatchObject({ code: 0, stdout: 'Summarized.\n' });
  }, 60_000);

  it('a failed turn (the API refuses) is exit 1 with the error on stderr', async () => {
    const url = await server([{ kind: 'http-error', status: 400, message: 'bad request body' }]);
    const result = await runDensePiped({
      args: ['--base-url', url, '-p', 'hello'],
      cwd: workspace,
      env,
      input: '',
    });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(
      /^dense: openai \(PROVIDER_HTTP_ERROR\): .*400.*bad request body/m,
    );
  }, 60_000);

  it('bad usage is one line on stderr and exit 2', async () => {
    const bad = await runDensePiped({ args: ['--frobnicate'], cwd: workspace, env, input: '' });
    expect(bad.code).toBe(2);
    expect(bad.stderr.trim().split('\n')).toHaveLength(1);
    expect(bad.stderr).toMatch(/^dense: Unknown argument: frobnicate/);

    const badSet = await runDensePiped({
      args: ['--set', 'compression.strategy=fastest', '-p', 'x'],
      cwd: workspace,
      env,
      input: '',
    });
    expect(badSet.code).toBe(2);
    expect(badSet.stderr).toContain("'compression.strategy' must be one of");

    const noPrompt = await runDensePiped({ args: [], cwd: workspace, env, input: '' });
    expect(noPrompt.code).toBe(2);
    expect(noPrompt.stderr).toContain('No prompt');

    const missingProfile = await runDensePiped({
      args: ['--profile', 'ghost', '-p', 'x'],
      cwd: workspace,
      env,
      input: '',
    });
    expect(missingProfile.code).toBe(2);
    expect(missingProfile.stderr.trim()).toMatch(/^dense: Profile 'ghost' does not exist/);
  }, 60_000);
});
