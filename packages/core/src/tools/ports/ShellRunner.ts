/** The shell port run_shell_command uses: run one `bash -c` command and report how it ended. */

/** What a run printed (stdout and stderr interleaved), cut to a byte budget. */
export interface CapturedOutput {
  /** The kept text; when bytes were dropped, the first half and the last half of the budget. */
  readonly text: string;
  readonly totalBytes: number;
  /** Bytes dropped from the middle; 0 when everything was kept. */
  readonly omittedBytes: number;
}

export interface ShellRunRequest {
  readonly command: string;
  /** Absolute working directory. */
  readonly cwd: string;
  readonly timeoutMs: number;
  readonly maxOutputBytes: number;
  readonly signal?: AbortSignal;
}

export type ShellRunResult =
  | { readonly kind: 'exited'; readonly exitCode: number; readonly output: CapturedOutput }
  | { readonly kind: 'killed'; readonly signal: string; readonly output: CapturedOutput }
  | { readonly kind: 'timeout'; readonly output: CapturedOutput }
  | { readonly kind: 'aborted'; readonly output: CapturedOutput }
  | { readonly kind: 'spawn-failed'; readonly message: string };

export interface ShellRunner {
  /** Never rejects: every way a run can end is a result. */
  run(request: ShellRunRequest): Promise<ShellRunResult>;
}
