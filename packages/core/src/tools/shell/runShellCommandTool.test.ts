import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ShellRunner, ShellRunResult } from '../ports/ShellRunner.js';
import {
  createToolHarness,
  errorText,
  okOutput,
  type ToolHarness,
} from '../testing/toolTestHarness.js';
import { TOOL_LIMITS } from '../toolLimits.js';

let h: ToolHarness;
beforeEach(async () => {
  h = await createToolHarness();
});
afterEach(async () => {
  await h.cleanup();
});

function fakeShell(result: ShellRunResult): ShellRunner {
  return { run: () => Promise.resolve(result) };
}

const noOutput = { text: '', totalBytes: 0, omittedBytes: 0 };

describe('run_shell_command', () => {
  it('returns combined stdout and stderr of a successful command', async () => {
    expect(okOutput(await h.call('run_shell_command', { command: 'echo out; echo err >&2' }))).toBe(
      'out\nerr\n',
    );
  });

  it('runs in the workspace root, or in cwd inside it', async () => {
    await h.write('sub/marker', '');
    expect(okOutput(await h.call('run_shell_command', { command: 'pwd' }))).toBe(`${h.root}\n`);
    expect(okOutput(await h.call('run_shell_command', { command: 'ls', cwd: 'sub' }))).toBe(
      'marker\n',
    );
  });

  it('says when there was no output', async () => {
    expect(okOutput(await h.call('run_shell_command', { command: 'true' }))).toBe('(no output)');
  });

  it('reports a non-zero exit as SHELL_EXIT_NONZERO with the code and the output', async () => {
    const error = errorText(
      await h.call('run_shell_command', { command: 'echo failing >&2; exit 3' }),
      'SHELL_EXIT_NONZERO',
    );
    expect(error).toBe('SHELL_EXIT_NONZERO: Command exited with code 3. Output:\nfailing\n');
  });

  it('kills a command that runs past timeout_ms and reports SHELL_TIMEOUT with its output', async () => {
    const error = errorText(
      await h.call('run_shell_command', { command: 'echo started; sleep 30', timeout_ms: 300 }),
      'SHELL_TIMEOUT',
    );
    expect(error).toContain('timed out after 300 ms');
    expect(error).toContain('started');
  });

  it('stops the command when the turn is cancelled', async () => {
    const controller = new AbortController();
    const pending = h.call(
      'run_shell_command',
      { command: 'sleep 30' },
      { signal: controller.signal },
    );
    setTimeout(() => controller.abort(), 100);
    expect(errorText(await pending, 'ABORTED')).toContain('cancelled');
  });

  it('caps huge output at 64 KB, keeping the start and the end, and says how to see more', async () => {
    const out = okOutput(await h.call('run_shell_command', { command: 'seq 1 100000' }));
    expect(out.startsWith('1\n2\n3\n')).toBe(true);
    expect(out).toContain('\n99999\n100000\n\n[Output capped at 64 KB');
    expect(out).toMatch(/\[… \d+ bytes omitted …\]/);
    expect(out).toContain('of 588895 bytes were omitted');
    expect(out).toContain('redirect the output to a file');
    expect(Buffer.byteLength(out)).toBeLessThan(TOOL_LIMITS.shellMaxOutputBytes + 500);
  });

  it('caps the output of a failing command too', async () => {
    const error = errorText(
      await h.call('run_shell_command', { command: 'seq 1 100000; exit 1' }),
      'SHELL_EXIT_NONZERO',
    );
    expect(error).toContain('Output capped at 64 KB');
    expect(Buffer.byteLength(error)).toBeLessThan(TOOL_LIMITS.shellMaxOutputBytes + 500);
  });

  it('rejects bad parameters, naming the field', async () => {
    expect(errorText(await h.call('run_shell_command', {}), 'INVALID_PARAMETERS')).toContain(
      'command: is required',
    );
    expect(
      errorText(
        await h.call('run_shell_command', {
          command: 'ls',
          timeout_ms: TOOL_LIMITS.shellMaxTimeoutMs + 1,
        }),
        'INVALID_PARAMETERS',
      ),
    ).toContain('timeout_ms');
    expect(
      errorText(await h.call('run_shell_command', { command: ['ls'] }), 'INVALID_PARAMETERS'),
    ).toContain('command: expected string, received array');
  });

  it('refuses a cwd outside the workspace: `../`, absolute, or a symlink out', async () => {
    await h.link(h.outside, 'out');
    for (const cwd of ['..', h.outside, 'out']) {
      errorText(
        await h.call('run_shell_command', { command: 'touch pwned', cwd }),
        'PATH_OUTSIDE_WORKSPACE',
      );
    }
    errorText(await h.call('run_shell_command', { command: 'ls', cwd: 'nope' }), 'FILE_NOT_FOUND');
    await h.write('f', '');
    errorText(await h.call('run_shell_command', { command: 'ls', cwd: 'f' }), 'NOT_A_DIRECTORY');
  });

  it('maps a kill by a foreign signal and a failed spawn to their codes', async () => {
    const killed = await h.call(
      'run_shell_command',
      { command: 'x' },
      {
        shell: fakeShell({ kind: 'killed', signal: 'SIGSEGV', output: noOutput }),
      },
    );
    expect(errorText(killed, 'SHELL_KILLED')).toContain('SIGSEGV');
    const spawn = await h.call(
      'run_shell_command',
      { command: 'x' },
      {
        shell: fakeShell({ kind: 'spawn-failed', message: 'spawn bash ENOENT' }),
      },
    );
    expect(errorText(spawn, 'SHELL_SPAWN_FAILED')).toContain('spawn bash ENOENT');
  });

  it('passes the real cwd, the timeout, the cap and the signal to the runner', async () => {
    await h.write('dir/x', '');
    const controller = new AbortController();
    let seen: unknown;
    const shell: ShellRunner = {
      run: (request) => {
        seen = request;
        return Promise.resolve({ kind: 'exited', exitCode: 0, output: noOutput });
      },
    };
    await h.call(
      'run_shell_command',
      { command: 'ls', cwd: 'dir', timeout_ms: 5000 },
      { shell, signal: controller.signal },
    );
    expect(seen).toEqual({
      command: 'ls',
      cwd: path.join(h.root, 'dir'),
      timeoutMs: 5000,
      maxOutputBytes: TOOL_LIMITS.shellMaxOutputBytes,
      signal: controller.signal,
    });
  });
});
