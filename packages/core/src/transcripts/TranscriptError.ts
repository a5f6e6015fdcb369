/**
 * The one error type transcript import throws: the file could not be read, its format is unknown,
 * or it holds no usable session. Each carries a stable code, the file and (where known) the line or
 * JSON path, and says what was expected. Partly valid files do not throw: they report skipped records.
 */
import { DenseError } from '../utils/errors.js';
import type { RecordLocation } from './types.js';

export type TranscriptErrorCode =
  | 'TRANSCRIPT_IO'
  | 'TRANSCRIPT_UNKNOWN_FORMAT'
  | 'TRANSCRIPT_INVALID_JSON'
  | 'TRANSCRIPT_INVALID_STRUCTURE'
  | 'TRANSCRIPT_UNSUPPORTED_VERSION'
  | 'TRANSCRIPT_EMPTY'
  | 'TRANSCRIPT_MULTIPLE_SESSIONS';

export class TranscriptError extends DenseError {
  constructor(
    readonly code: TranscriptErrorCode,
    message: string,
    readonly file: string,
    readonly location?: RecordLocation,
    options?: { readonly cause?: unknown },
  ) {
    super(message, options);
  }
}

/** `file`, `file:12` or `file at $.history[3]`, for messages. */
export function describeLocation(file: string, location?: RecordLocation): string {
  if (location === undefined) return file;
  return location.line !== undefined ? `${file}:${location.line}` : `${file} at ${location.path}`;
}
