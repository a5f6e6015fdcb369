/**
 * Drives real processes for end-to-end tests: the standalone mock LLM server, the `dense` binary in
 * a pseudo-terminal (node-pty), and `dense` with piped stdin. Output is kept whole; `waitFor`
 * watches it (ANSI codes removed) for text to appear after a mark.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { spawn as spawnPty, type IPty } from 'node-pty';
import { DENSE_BIN, MOCK_SERVER_BIN } from './builtBinary.js';

// eslint-disable-next-line no-control-regex
const ANSI = /\u001b\[[0-9;?]*[A-Za-z]|\u001b\][^\u0007]*\u0007|\u001b[()][A-Z0-9]|\u001b[=>78]/g;

export function stripAnsi(text: string): string {
  return text.replace(ANSI, '');
}

export interface MockServerProcess {
  readonly url: string;
  stop(): Promise<void>;
}

/** Starts `mockServer/cli.js` with `script` (written to `dir`) and waits for its URL. */
export async function startMockServerProcess(
  dir: string,
  script: unknown,
): Promise<MockServerProcess> {
  const file = path.join(
    dir,
    `mock-script-${Date.now()}-${Math.random().toString(16).slice(2)}.json`,
  );
  await writeFile(file, JSON.stringify(script));
  const child = spawn(process.execPath, [MOCK_SERVER_BIN, '--port', '0', '--script', file], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const line = out.split('\n')[0];
      if (out.includes('\n') && line) resolve(line.trim());
    });
    child.once('exit', (code) => reject(new Error(`mock server exited with ${code}`)));
  });
  return { url, stop: () => stopChild(child) };
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

export interface PtyOptions {
  readonly args: readonly string[];
  readonly cwd: string;
  readonly env: NodeJS.ProcessEnv;
  readonly cols?: number;
  readonly rows?: number;
}

export class PtyDense {
  private output = '';
  private readonly pty: IPty;
  readonly exited: Promise<number>;

  constructor(options: PtyOptions) {
    this.pty = spawnPty(process.execPath, [DENSE_BIN, ...options.args], {
      name: 'xterm-256color',
      cols: options.cols ?? 100,
      rows: options.rows ?? 40,
      cwd: options.cwd,
      env: { PATH: process.env.PATH ?? '', TERM: 'xterm-256color', ...options.env },
    });
    this.pty.onData((data) => {
      this.output += data;
    });
    this.exited = new Promise((resolve) => this.pty.onExit(({ exitCode }) => resolve(exitCode)));
  }

  /** Everything written to the terminal so far, escape codes included. */
  get raw(): string {
    return this.output;
  }

  /** Everything shown so far, without ANSI codes. */
  get text(): string {
    return stripAnsi(this.output);
  }

  mark(): number {
    return this.text.length;
  }

  write(data: string): void {
    this.pty.write(data);
  }

  /** Waits until `pattern` appears in the output after `since`; returns the match. */
  async waitFor(
    pattern: string | RegExp,
    since = 0,
    timeoutMs = 30_000,
  ): Promise<RegExpMatchArray> {
    const regex = typeof pattern === 'string' ? new RegExp(escapeRegExp(pattern)) : pattern;
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const match = this.text.slice(since).match(regex);
      if (match) return match;
      if (Date.now() > deadline) {
        throw new Error(
          `Timed out waiting for ${String(regex)}; output after mark:\n${this.text.slice(since)}`,
        );
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  /** Types a line and waits for `expected` to appear after it. */
  async send(line: string, expected: string | RegExp): Promise<RegExpMatchArray> {
    const since = this.mark();
    this.write(`${line}\r`);
    return this.waitFor(expected, since);
  }

  kill(): void {
    try {
      this.pty.kill();
    } catch {
      // already gone
    }
  }
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

export interface PipedResult {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs `dense` with `input` piped to stdin (no terminal). */
export function runDensePiped(options: {
  readonly args: readonly string[];
  readonly cwd: string;
  readonly env: NodeJS.ProcessEnv;
  readonly input: string;
}): Promise<PipedResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [DENSE_BIN, ...options.args], {
      cwd: options.cwd,
      env: { PATH: process.env.PATH ?? '', ...options.env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(options.input);
  });
}
