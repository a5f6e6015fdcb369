/**
 * The CLI as users install it: the tarball `npm run pack:cli` writes, installed with one
 * `npm install -g` into a temporary prefix (dependencies from the npm registry, no build step, no
 * dev dependencies). The installed `dense` prints its version and runs `dense proxy` in front of a
 * loopback mock upstream, through which one request goes and its answer comes back.
 */
import { spawn, execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockServer, type MockServer } from '@dense/core/test-utils';
import { ensureBuilt, REPO_ROOT } from '../test-utils/builtBinary.js';
import { installPackedCli, type InstalledCli } from '../test-utils/packedInstall.js';

const run = promisify(execFile);

const notBuilt = await ensureBuilt();
const install = notBuilt === undefined ? await installPackedCli() : undefined;
const installed: InstalledCli | undefined = install?.kind === 'installed' ? install : undefined;
const skipReason = notBuilt ?? (install?.kind === 'unavailable' ? install.reason : undefined);
const title =
  installed === undefined
    ? `dense installed from the packed tarball (skipped: ${skipReason ?? 'not installed'})`
    : `dense installed from the packed tarball (packed in ${installed.packSeconds} s, installed in ${installed.installSeconds} s)`;

const cliVersion = (
  JSON.parse(readFileSync(path.join(REPO_ROOT, 'packages/cli/package.json'), 'utf8')) as {
    version: string;
  }
).version;

/** Text of an Anthropic SSE reply: its `text_delta`s joined. */
function streamedText(sse: string): string {
  return sse
    .split('\n')
    .filter((line) => line.startsWith('data: '))
    .map((line) => JSON.parse(line.slice('data: '.length)) as { delta?: { text?: unknown } })
    .map((event) => (typeof event.delta?.text === 'string' ? event.delta.text : ''))
    .join('');
}

interface ProxyRun {
  readonly url: string;
  /** Sends SIGTERM and resolves with the exit code and everything written to stderr. */
  stop(): Promise<{ code: number | null; stderr: string }>;
}

function startInstalledProxy(cli: InstalledCli, upstream: string): Promise<ProxyRun> {
  const child = spawn(
    cli.bin,
    ['proxy', '--port', '0', '--anthropic-upstream', upstream, '--openai-upstream', upstream],
    {
      env: {
        PATH: process.env.PATH,
        HOME: path.join(cli.base, 'home'),
        DENSE_HOME: path.join(cli.base, 'dense-home'),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  const stop = async () => {
    if (child.exitCode === null) child.kill('SIGTERM');
    return { code: await exited, stderr };
  };
  return new Promise((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const url = /listening on (http:\/\/\S+)/.exec(stdout)?.[1];
      if (url !== undefined) resolve({ url, stop });
    });
    void exited.then((code) =>
      reject(new Error(`dense proxy exited with ${code} before listening: ${stderr}`)),
    );
  });
}

describe.skipIf(installed === undefined)(title, () => {
  const cli = installed as InstalledCli;
  const packageDir = () => path.join(cli.prefix, 'lib/node_modules/@dense/cli');

  afterAll(async () => {
    await rm(cli.base, { recursive: true, force: true });
  });

  it('#24.7 the tarball carries core and its prompts, and no tests, test-utils or build info', () => {
    expect(cli.files).toContain('dist/index.js');
    expect(cli.files).toContain('node_modules/@dense/core/dist/index.js');
    expect(cli.files).toContain('node_modules/@dense/core/src/prompt-config/defaults/system.md');
    const ours = cli.files.filter((file) => !file.startsWith('demo-project/'));
    expect(ours.filter((file) => /\.test\.|\.bench\.|\.tsbuildinfo$/.test(file))).toEqual([]);
    expect(ours.filter((file) => /(^|\/)(test-utils|testing|e2e)\//.test(file))).toEqual([]);
    expect(ours.filter((file) => /(^|\/)src\/.*\.tsx?$/.test(file))).toEqual([]);
  });

  it('#24.7 one npm install -g gives a dense command without dev dependencies', () => {
    expect(existsSync(cli.bin)).toBe(true);
    for (const dev of ['node-pty', 'vitest', 'fast-check', 'typescript', 'tsx']) {
      expect(existsSync(path.join(packageDir(), 'node_modules', dev)), dev).toBe(false);
    }
    expect(existsSync(path.join(packageDir(), 'node_modules/openai/package.json'))).toBe(true);
  });

  it('#24.7 the installed dense --version prints the CLI version', async () => {
    const { stdout } = await run(cli.bin, ['--version'], {
      env: { PATH: process.env.PATH, HOME: path.join(cli.base, 'home') },
      timeout: 60_000,
    });
    expect(stdout.trim()).toBe(cliVersion);
  }, 60_000);

  describe('#24.7 the installed dense proxy', () => {
    let upstream: MockServer;
    let proxy: ProxyRun;

    beforeAll(async () => {
      upstream = await startMockServer({
        script: [{ kind: 'stream', text: ['pong ', 'via mock'] }],
      });
      proxy = await startInstalledProxy(cli, upstream.url);
    }, 60_000);

    afterAll(async () => {
      await proxy?.stop();
      await upstream?.close();
    });

    it('#24.7 forwards one request to the loopback upstream and streams its answer back, then exits 0 on SIGTERM', async () => {
      const response = await fetch(`${proxy.url}/v1/messages`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-api-key': 'dummy',
          'anthropic-version': '2023-06-01',
        },
        body: JSON.stringify({
          model: 'claude-sonnet-4-6',
          max_tokens: 64,
          stream: true,
          messages: [{ role: 'user', content: 'ping' }],
        }),
      });
      expect(response.status).toBe(200);
      expect(streamedText(await response.text())).toBe('pong via mock');
      expect(upstream.requests).toHaveLength(1);
      expect(upstream.requests[0]).toMatchObject({
        path: '/v1/messages',
        authPresent: true,
        body: { messages: [{ role: 'user', content: 'ping' }] },
      });
      const { code, stderr } = await proxy.stop();
      expect(code).toBe(0);
      expect(stderr).toMatch(/requests\s+1\b/);
    }, 60_000);
  });
});
