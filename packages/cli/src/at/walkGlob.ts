/**
 * The files below a directory whose path matches a glob, for `@src/**\/*.ts`. Depth-first in name
 * order; skips `node_modules` and `.git` unless the pattern names them; never follows symlinked
 * directories; stops after `maxMatches` matches or `maxEntries` visited entries.
 */
import path from 'node:path';
import { globToRegExp, type FileSystem } from '@dense/core';

export interface GlobWalkRequest {
  readonly fs: Pick<FileSystem, 'readdir'>;
  /** Absolute directory the pattern's relative part is matched from. */
  readonly baseDir: string;
  /** The pattern below `baseDir`, `/`-separated. */
  readonly pattern: string;
  readonly maxMatches: number;
  readonly maxEntries?: number;
}

export interface GlobWalkResult {
  /** Absolute paths of matching files (symlinks to files included; they are checked later). */
  readonly files: readonly string[];
  /** More files matched than `maxMatches`. */
  readonly truncated: boolean;
}

const SKIPPED = ['node_modules', '.git'];

/** @throws InvalidGlobError for a malformed pattern. */
export async function walkGlob(request: GlobWalkRequest): Promise<GlobWalkResult> {
  const regex = globToRegExp(request.pattern);
  const skipped = new Set(SKIPPED.filter((name) => !request.pattern.includes(name)));
  const files: string[] = [];
  let visited = 0;
  const maxEntries = request.maxEntries ?? 100_000;
  let truncated = false;

  const visit = async (dir: string, relative: string): Promise<boolean> => {
    let entries;
    try {
      entries = [...(await request.fs.readdir(dir))].sort((a, b) => (a.name < b.name ? -1 : 1));
    } catch {
      return true;
    }
    for (const entry of entries) {
      if (++visited > maxEntries) return false;
      const childRelative = relative === '' ? entry.name : `${relative}/${entry.name}`;
      const childPath = path.join(dir, entry.name);
      if (entry.kind === 'directory') {
        if (skipped.has(entry.name)) continue;
        if (!(await visit(childPath, childRelative))) return false;
      } else if ((entry.kind === 'file' || entry.kind === 'symlink') && regex.test(childRelative)) {
        if (files.length >= request.maxMatches) {
          truncated = true;
          return false;
        }
        files.push(childPath);
      }
    }
    return true;
  };

  await visit(request.baseDir, '');
  return { files, truncated };
}
