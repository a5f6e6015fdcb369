/**
 * What the output of Codex's `exec` tool says about the script it ran. The first text item is a
 * header (`Script completed` / `Script failed` / `Script running with cell ID …`, then the wall
 * time and `Output:`); the items after it are what the script passed to `text(…)`. A nested tool
 * that throws (a rejected or unverifiable `apply_patch`) fails the script; a shell command's exit
 * code is visible only when the script passed the whole `exec_command` result to `text(…)`.
 */
import type { ExecCodeParse } from './parseExecCode.js';

export interface ExecOutput {
  /** The header says the script ran to its end without an error. */
  readonly completed: boolean;
  /** Exit codes of `exec_command` results shown whole (JSON objects with `exit_code`, `output`). */
  readonly exitCodes: readonly number[];
}

const COMPLETED = /^Script completed\r?\n/;

function exitCodeOf(part: string): number | undefined {
  if (!part.trimStart().startsWith('{')) return undefined;
  try {
    const value = JSON.parse(part) as unknown;
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
    const record = value as Readonly<Record<string, unknown>>;
    return typeof record.exit_code === 'number' && typeof record.output === 'string'
      ? record.exit_code
      : undefined;
  } catch {
    return undefined; // a text item that is not a result object
  }
}

/** Reads an `exec` output given as its text items in order (a plain string output is one item). */
export function readExecOutput(parts: readonly string[]): ExecOutput {
  const [header = '', ...shown] = parts;
  const exitCodes = shown.flatMap((part) => {
    const code = exitCodeOf(part);
    return code === undefined ? [] : [code];
  });
  return { completed: COMPLETED.test(header), exitCodes };
}

/**
 * Whether an understood `exec` call did not (certainly) succeed: the script did not complete, a
 * shown exit code is non-zero, or `needsExitCode` (the command changes files) and the exit code is
 * not shown, so its success cannot be known.
 */
export function execCallFailed(input: {
  readonly parse: Extract<ExecCodeParse, { kind: 'calls' }>;
  readonly output: ExecOutput;
  readonly needsExitCode: boolean;
}): boolean {
  const { parse, output, needsExitCode } = input;
  if (!output.completed) return true;
  const codes = parse.showsResult ? output.exitCodes : [];
  if (codes.some((code) => code !== 0)) return true;
  return needsExitCode && codes.length === 0;
}
