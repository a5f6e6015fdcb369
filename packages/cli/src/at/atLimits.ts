/** How much `@` inclusion may put into one message. */
export interface AtLimits {
  /** A file above this many bytes is cut (at a line boundary) with a note. */
  readonly maxFileBytes: number;
  /** A file above this many lines is cut with a note. */
  readonly maxFileLines: number;
  /** All inclusions of one message together; later files are cut or left out with a note. */
  readonly maxTotalBytes: number;
  /** Files one glob may include. */
  readonly maxGlobFiles: number;
  /** Files larger than this are not read at all. */
  readonly maxReadBytes: number;
}

export const AT_LIMITS: AtLimits = {
  maxFileBytes: 100 * 1024,
  maxFileLines: 2000,
  maxTotalBytes: 400 * 1024,
  maxGlobFiles: 50,
  maxReadBytes: 20 * 1024 * 1024,
};
