/** The output and input caps every tool applies, in one place so the docs and the tools agree. */

const KB = 1024;
const MB = 1024 * KB;

export const TOOL_LIMITS = {
  /** Lines one read_file / read_line_range call returns at most. */
  readMaxLines: 2000,
  /** Bytes (UTF-8) of file content one read call returns at most. */
  readMaxBytes: 256 * KB,
  /** Files larger than this are refused by the file tools (read them in pieces with the shell). */
  maxFileBytes: 20 * MB,
  /** Files read_many_files includes in one call at most. */
  readManyMaxFiles: 200,
  /** Combined stdout/stderr of run_shell_command kept (half from the start, half from the end). */
  shellMaxOutputBytes: 64 * KB,
  shellDefaultTimeoutMs: 120_000,
  shellMaxTimeoutMs: 600_000,
  /** After a timeout or abort, how long the process group gets between SIGTERM and SIGKILL. */
  shellKillGraceMs: 2_000,
  grepMaxMatches: 500,
  /** Bytes of grep output at most (matches beyond it are dropped and counted as "more"). */
  grepMaxOutputBytes: 64 * KB,
  /** A matching line longer than this is shown cut, with a note. */
  grepMaxLineChars: 500,
  /** grep skips files larger than this. */
  grepMaxFileBytes: 5 * MB,
  globMaxResults: 1000,
  listMaxEntries: 1000,
  /** Directory entries a grep/glob/read_many_files walk visits before it stops and says so. */
  walkMaxEntries: 100_000,
} as const;

export type ToolLimits = typeof TOOL_LIMITS;

/** Directories the walking tools (grep, glob, read_many_files) never descend into. */
export const SKIPPED_DIRECTORIES: ReadonlySet<string> = new Set(['node_modules', '.git']);
