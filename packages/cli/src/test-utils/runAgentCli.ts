/**
 * Runs an installed agent CLI (Claude Code, Codex, Qwen Code) once, headless: stdin closed, output
 * kept whole, the exit code 0 on success and the child's code (or 1) otherwise.
 */
import { execFile } from 'node:child_process';

export interface AgentRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** `command` (binary and its leading arguments, as the installer gives it) followed by `args`. */
export function runAgentCli(input: {
  readonly command: readonly string[];
  readonly args: readonly string[];
  readonly cwd: string;
  readonly env: NodeJS.ProcessEnv;
  readonly timeoutMs: number;
  readonly maxBuffer?: number;
}): Promise<AgentRun> {
  const [file = '', ...prefix] = input.command;
  const options = {
    cwd: input.cwd,
    env: input.env,
    timeout: input.timeoutMs,
    ...(input.maxBuffer === undefined ? {} : { maxBuffer: input.maxBuffer }),
  };
  return new Promise((resolve) => {
    const child = execFile(file, [...prefix, ...input.args], options, (error, stdout, stderr) =>
      resolve({ code: error ? (child.exitCode ?? 1) : 0, stdout, stderr }),
    );
    child.stdin?.end();
  });
}
