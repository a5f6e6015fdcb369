/** A CliIO whose stdout and stderr are captured into strings, for subcommand tests. */
import type { CliIO } from '../args/CliSubcommand.js';

export interface CapturedIO {
  readonly io: CliIO;
  readonly out: { stdout: string; stderr: string };
}

export function captureIO(cwd: string, env: NodeJS.ProcessEnv = {}): CapturedIO {
  const out = { stdout: '', stderr: '' };
  const sink = (key: 'stdout' | 'stderr') =>
    ({
      isTTY: false,
      columns: 100,
      write: (chunk: string) => {
        out[key] += chunk;
        return true;
      },
    }) as unknown as NodeJS.WriteStream;
  return {
    io: { stdin: process.stdin, stdout: sink('stdout'), stderr: sink('stderr'), env, cwd },
    out,
  };
}
