/**
 * The ShellRunner port backed by child_process: `bash -c` in its own process group (so a timeout
 * or abort kills the command's children too), stdin closed, pagers disabled, provider
 * credentials withheld (`shellEnvironment`).
 */
import { spawn } from 'node:child_process';
import { TOOL_LIMITS } from '../toolLimits.js';
import { HeadTailBuffer } from './HeadTailBuffer.js';
import { shellEnvironment } from './shellEnvironment.js';
import type { ShellRunRequest, ShellRunResult, ShellRunner } from './ShellRunner.js';

/** After bash exits, how long to wait for pipes that a background child may still hold open. */
const PIPE_DRAIN_MS = 300;

function killGroup(pid: number | undefined, signal: NodeJS.Signals): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, signal);
  } catch {
    // The group is already gone.
  }
}

function runCommand(request: ShellRunRequest): Promise<ShellRunResult> {
  return new Promise((resolve) => {
    const buffer = new HeadTailBuffer(request.maxOutputBytes);
    let ending: 'timeout' | 'aborted' | undefined;
    let settled = false;
    const child = spawn('bash', ['-c', request.command], {
      cwd: request.cwd,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
      env: shellEnvironment(process.env),
    });
    const stop = (why: 'timeout' | 'aborted'): void => {
      ending ??= why;
      killGroup(child.pid, 'SIGTERM');
      setTimeout(() => killGroup(child.pid, 'SIGKILL'), TOOL_LIMITS.shellKillGraceMs).unref();
    };
    const timer = setTimeout(() => stop('timeout'), request.timeoutMs);
    const onAbort = (): void => stop('aborted');
    request.signal?.addEventListener('abort', onAbort, { once: true });
    const finish = (result: ShellRunResult): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      request.signal?.removeEventListener('abort', onAbort);
      child.stdout?.destroy();
      child.stderr?.destroy();
      resolve(result);
    };
    child.stdout?.on('data', (chunk: Buffer) => buffer.push(chunk));
    child.stderr?.on('data', (chunk: Buffer) => buffer.push(chunk));
    child.on('error', (error) => finish({ kind: 'spawn-failed', message: error.message }));
    const settle = (code: number | null, signal: NodeJS.Signals | null): void => {
      const output = buffer.result();
      if (ending !== undefined) finish({ kind: ending, output });
      else if (signal !== null) finish({ kind: 'killed', signal, output });
      else finish({ kind: 'exited', exitCode: code ?? 0, output });
    };
    child.on('close', settle);
    child.on('exit', (code, signal) => {
      setTimeout(() => settle(code, signal), PIPE_DRAIN_MS);
    });
    if (request.signal?.aborted === true) stop('aborted');
  });
}

export const nodeShellRunner: ShellRunner = { run: runCommand };
