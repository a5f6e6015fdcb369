/**
 * `run_shell_command`: one `bash -c` command in a workspace directory, with a timeout and a capped
 * combined stdout/stderr. A non-zero exit, a timeout or a kill is an error result with the output.
 */
import { z } from 'zod';
import { defineTool } from '../defineTool.js';
import type { CapturedOutput, ShellRunResult } from '../ports/ShellRunner.js';
import { toolFailure, toolSuccess, type ToolResult } from '../Tool.js';
import { TOOL_LIMITS } from '../toolLimits.js';
import { fsErrorResult, isToolError, resolveToolPath } from '../workspace/toolPaths.js';

const RunShellCommandParams = z.object({
  command: z.string().min(1).describe('The command line, run with bash -c. stdin is closed.'),
  cwd: z
    .string()
    .min(1)
    .optional()
    .describe('Working directory, relative to the workspace root. Default: the root.'),
  timeout_ms: z
    .number()
    .int()
    .min(1)
    .max(TOOL_LIMITS.shellMaxTimeoutMs)
    .optional()
    .describe(
      `Kill the command after this many milliseconds. Default ${TOOL_LIMITS.shellDefaultTimeoutMs}, maximum ${TOOL_LIMITS.shellMaxTimeoutMs}.`,
    ),
});

const CAP_KB = TOOL_LIMITS.shellMaxOutputBytes / 1024;

/** The output as the model sees it, with a note when the middle was dropped. */
export function describeOutput(output: CapturedOutput): string {
  const text = output.text === '' ? '(no output)' : output.text;
  if (output.omittedBytes === 0) return text;
  return `${text}\n[Output capped at ${CAP_KB} KB: ${output.omittedBytes} of ${output.totalBytes} bytes were omitted from the middle. To see more, redirect the output to a file and read parts of it, or filter it (e.g. \`| tail -n 100\`, \`| grep ERROR\`).]`;
}

function toToolResult(run: ShellRunResult, timeoutMs: number): ToolResult {
  switch (run.kind) {
    case 'exited':
      return run.exitCode === 0
        ? toolSuccess(describeOutput(run.output), 'Exit code 0')
        : toolFailure(
            'SHELL_EXIT_NONZERO',
            `Command exited with code ${run.exitCode}. Output:\n${describeOutput(run.output)}`,
          );
    case 'killed':
      return toolFailure(
        'SHELL_KILLED',
        `Command was killed by ${run.signal}. Output:\n${describeOutput(run.output)}`,
      );
    case 'timeout':
      return toolFailure(
        'SHELL_TIMEOUT',
        `Command timed out after ${timeoutMs} ms and was killed with its child processes. Give a larger timeout_ms (at most ${TOOL_LIMITS.shellMaxTimeoutMs}) if it needs longer. Output before the timeout:\n${describeOutput(run.output)}`,
      );
    case 'aborted':
      return toolFailure(
        'ABORTED',
        `Command was cancelled and killed. Output before cancellation:\n${describeOutput(run.output)}`,
      );
    case 'spawn-failed':
      return toolFailure('SHELL_SPAWN_FAILED', `bash could not be started: ${run.message}`);
  }
}

export const runShellCommandTool = defineTool({
  name: 'run_shell_command',
  kind: 'shell',
  description: `Runs a shell command with bash -c in the workspace (or a directory inside it) and returns its combined stdout and stderr, capped at ${CAP_KB} KB (the start and the end are kept). A non-zero exit code is reported as an error with the output. Default timeout ${TOOL_LIMITS.shellDefaultTimeoutMs / 1000} s.`,
  parameters: RunShellCommandParams,
  describe: (p) => `Run \`${p.command}\`${p.cwd === undefined ? '' : ` in ${p.cwd}`}`,
  async execute(params, context) {
    const cwd = await resolveToolPath(context, params.cwd ?? '.');
    if (isToolError(cwd)) return cwd;
    try {
      if ((await context.fs.stat(cwd.realPath)).kind !== 'directory') {
        return toolFailure('NOT_A_DIRECTORY', `cwd ${cwd.relativePath} is not a directory.`);
      }
    } catch (error) {
      return fsErrorResult(error, cwd.relativePath);
    }
    const timeoutMs = params.timeout_ms ?? TOOL_LIMITS.shellDefaultTimeoutMs;
    const run = await context.shell.run({
      command: params.command,
      cwd: cwd.realPath,
      timeoutMs,
      maxOutputBytes: TOOL_LIMITS.shellMaxOutputBytes,
      ...(context.signal === undefined ? {} : { signal: context.signal }),
    });
    return toToolResult(run, timeoutMs);
  },
});
