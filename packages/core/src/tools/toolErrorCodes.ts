/** The stable error codes a tool result can carry; the model and the CLI may switch on them. */

export const TOOL_ERROR_CODES = [
  /** The model called a tool that is not registered. */
  'TOOL_NOT_FOUND',
  /** Parameters are not an object, miss a field, have a wrong type or an invalid combination. */
  'INVALID_PARAMETERS',
  /** The user (or the absence of an approval callback) refused a write or shell call. */
  'TOOL_DENIED',
  /** The turn was cancelled before or while the tool ran. */
  'ABORTED',
  /** The tool threw something it did not expect: a bug or an unusual I/O failure. */
  'TOOL_EXECUTION_FAILED',
  'PATH_OUTSIDE_WORKSPACE',
  'FILE_NOT_FOUND',
  /** A file was expected but the path is a directory (or a device, socket, …). */
  'NOT_A_FILE',
  'NOT_A_DIRECTORY',
  'PERMISSION_DENIED',
  'IO_ERROR',
  'BINARY_FILE',
  'FILE_TOO_LARGE',
  'FILE_EXISTS',
  'LINE_OUT_OF_RANGE',
  /** replace: `old_string` does not occur in the file. */
  'NO_MATCH',
  /** replace: `old_string` occurs a different number of times than `expected_replacements`. */
  'MATCH_COUNT_MISMATCH',
  /** read_many_files: no path or pattern named a readable file. */
  'NO_FILES_MATCHED',
  /** grep/glob: the regular expression or glob pattern does not compile. */
  'INVALID_PATTERN',
  'SHELL_EXIT_NONZERO',
  'SHELL_TIMEOUT',
  /** The command was killed by a signal that Dense did not send. */
  'SHELL_KILLED',
  /** bash could not be started. */
  'SHELL_SPAWN_FAILED',
  /** recall: no original with that id in this session's store. */
  'RECALL_UNKNOWN_ID',
  /** recall: the session has no store of originals (not recorded, or unreadable). */
  'RECALL_UNAVAILABLE',
  /** recall: the session recording has unreadable lines and the id is not in the rest. */
  'RECALL_STORE_CORRUPT',
] as const;

export type ToolErrorCode = (typeof TOOL_ERROR_CODES)[number];
