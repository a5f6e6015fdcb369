/** The typed error a prompt lookup throws: which prompt file, which paths were tried, what to do. */
import { DenseError } from '../utils/errors.js';

export type PromptFileErrorCode =
  'PROMPT_NOT_FOUND' | 'PROMPT_UNREADABLE' | 'PROMPT_EMPTY' | 'PROMPT_INVALID_PATH';

export class PromptFileError extends DenseError {
  constructor(
    readonly code: PromptFileErrorCode,
    /** The prompt asked for, e.g. `compression.md`. */
    readonly relativePath: string,
    /** Absolute paths looked at, in order. */
    readonly triedPaths: readonly string[],
    message: string,
    options?: { readonly cause?: unknown },
  ) {
    super(message, options);
  }
}
