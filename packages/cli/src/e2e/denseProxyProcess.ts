/**
 * The built `dense` CLI as real processes, for the gateway end-to-end tests: `dense proxy` on a
 * given loopback port (its stderr kept line by line, resolved once it listens; killed with any
 * signal) and `dense token create <user>` (the token it prints).
 */
import { execFile, spawn } from 'node:child_process';
import { promisify } from 'node:util';
import { DENSE_BIN } from '../test-utils/builtBinary.js';

export interface DenseProxyProcess {
  readonly name: string;
  readonly url: string;
  /** Its stderr lines so far (one per request, plus the store's health changes). */
  readonly lines: readonly string[];
  /** Sends `signal` and resolves once the process is gone. */
  kill(signal: NodeJS.Signals): Promise<void>;
}

export interface DenseProxyInput {
  readonly name: string;
  readonly port: number;
  readonly upstream: string;
  /** `--state` (a redis:// URL); embedded when undefined. */
  readonly state?: string;
  /** Its environment (give each its own `DENSE_HOME`). */
  readonly env: NodeJS.ProcessEnv;
}

export function startDenseProxy(input: DenseProxyInput): Promise<DenseProxyProcess> {
  const state = input.state === undefined ? [] : ['--state', input.state];
  const args = ['proxy', '--port', String(input.port), '--anthropic-upstream', input.upstream];
  const child = spawn(process.execPath, [DENSE_BIN, ...args, ...state], {
    env: { ...input.env, NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  let partial = '';
  child.stderr.on('data', (chunk: Buffer) => {
    const text = partial + chunk.toString('utf8');
    const parts = text.split('\n');
    partial = parts.pop() ?? '';
    lines.push(...parts);
  });
  const gone = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const kill = async (signal: NodeJS.Signals) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    await gone;
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      void kill('SIGKILL');
      reject(new Error(`dense proxy ${input.name} did not start: ${lines.join('\n')}`));
    }, 30_000);
    child.stdout.on('data', (chunk: Buffer) => {
      if (!chunk.toString('utf8').includes('dense proxy listening on')) return;
      clearTimeout(timer);
      resolve({ name: input.name, url: `http://127.0.0.1:${input.port}`, lines, kill });
    });
    void gone.then(() => {
      clearTimeout(timer);
      reject(new Error(`dense proxy ${input.name} exited: ${lines.join('\n')}`));
    });
  });
}

/** `dense token create <user>` in `env` (with `--state` when given): the token printed. */
export async function createDenseToken(input: {
  readonly user: string;
  readonly env: NodeJS.ProcessEnv;
  readonly state?: string;
}): Promise<string> {
  const state = input.state === undefined ? [] : ['--state', input.state];
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [DENSE_BIN, 'token', 'create', input.user, ...state],
    { env: input.env, timeout: 30_000 },
  );
  return stdout.trim();
}
