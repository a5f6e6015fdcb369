/**
 * The file-system port the tools use. Methods reject with Node-style errors that carry an errno
 * `code` (`ENOENT`, `ENOTDIR`, `EISDIR`, `EACCES`, …), so in-memory fakes must do the same.
 */

export type FileKind = 'file' | 'directory' | 'symlink' | 'other';

export interface FileStat {
  readonly kind: FileKind;
  /** Size in bytes. */
  readonly size: number;
  readonly mtimeMs: number;
}

export interface DirEntry {
  readonly name: string;
  /** The entry itself, not what a symlink points to. */
  readonly kind: FileKind;
}

export interface FileSystem {
  readFile(filePath: string): Promise<Uint8Array>;
  /**
   * Replaces the file atomically (temp file in the same directory + rename), keeping the mode of
   * an existing file. The parent directory must exist.
   */
  writeFile(filePath: string, content: string): Promise<void>;
  /** Follows symlinks. */
  stat(filePath: string): Promise<FileStat>;
  /** Does not follow a final symlink. */
  lstat(filePath: string): Promise<FileStat>;
  realpath(filePath: string): Promise<string>;
  readlink(filePath: string): Promise<string>;
  readdir(dirPath: string): Promise<readonly DirEntry[]>;
  mkdir(dirPath: string, options?: { readonly recursive?: boolean }): Promise<void>;
}

/** The errno code of a Node-style error, if it has one. */
export function errnoCode(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null || !('code' in error)) return undefined;
  const code = error.code;
  return typeof code === 'string' ? code : undefined;
}
