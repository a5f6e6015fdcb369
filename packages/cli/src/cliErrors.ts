/**
 * The CLI's own typed errors: bad usage and unusable start-up input (workspace, resume target).
 * Each maps to exit code 2 and is shown as one line, never as a stack trace.
 */
import { DenseError } from '@dense/core';

export type CliErrorCode =
  | 'CLI_USAGE'
  | 'CLI_WORKSPACE_INVALID'
  | 'CLI_SESSION_NOT_FOUND'
  | 'CLI_SESSION_INVALID'
  | 'CLI_NO_PROMPT';

export class CliError extends DenseError {
  constructor(
    readonly code: CliErrorCode,
    message: string,
    options?: { readonly cause?: unknown },
  ) {
    super(message, options);
  }
}

/** Exit codes: 0 success, 1 a failed turn, 2 bad usage or configuration. */
export const EXIT = { ok: 0, failed: 1, usage: 2 } as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];
