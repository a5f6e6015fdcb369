/**
 * Safe resolution of a user- or model-supplied path against the workspace root: `..` is resolved,
 * then symlinks (through the deepest existing ancestor, and through dangling links), and the real
 * location must lie inside the real workspace root. Shared by every tool and the CLI's `@` processor.
 */
import path from 'node:path';
import { nodeFileSystem } from '../ports/nodeFileSystem.js';
import { errnoCode, type FileSystem } from '../ports/FileSystem.js';

export type PathResolverFs = Pick<FileSystem, 'realpath' | 'lstat' | 'readlink'>;

export type WorkspacePath =
  | {
      readonly kind: 'inside';
      /** `path.resolve(workspaceRoot, p)`: `..` resolved, symlinks not. */
      readonly absolutePath: string;
      /** Where the path really leads (symlinks resolved); do the I/O here. */
      readonly realPath: string;
      /** Workspace-relative, `/`-separated, `.` for the root: the name to show and mark files with. */
      readonly relativePath: string;
    }
  | {
      readonly kind: 'outside';
      readonly absolutePath: string;
      readonly realPath: string;
      /** Why: the path itself leaves the root, or a symlink on the way leads out. */
      readonly reason: 'path' | 'symlink';
    };

const MAX_LINK_HOPS = 40;

function isWithin(root: string, candidate: string): boolean {
  const relative = path.relative(root, candidate);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}

function toPosix(relative: string): string {
  return relative === '' ? '.' : relative.split(path.sep).join('/');
}

function isMissing(error: unknown): boolean {
  const code = errnoCode(error);
  return code === 'ENOENT' || code === 'ENOTDIR';
}

/** The real path of `target`, which need not exist: existing ancestors and links are resolved. */
async function realPathOf(fs: PathResolverFs, target: string, hops = 0): Promise<string> {
  let existing = target;
  const missing: string[] = [];
  for (;;) {
    try {
      const real = await fs.realpath(existing);
      return missing.length === 0 ? real : path.join(real, ...missing.reverse());
    } catch (error) {
      if (!isMissing(error)) throw error;
    }
    const dangling = await danglingLinkTarget(fs, existing);
    if (dangling !== undefined && hops < MAX_LINK_HOPS) {
      return realPathOf(fs, path.join(dangling, ...missing.reverse()), hops + 1);
    }
    const parent = path.dirname(existing);
    if (parent === existing) return target;
    missing.push(path.basename(existing));
    existing = parent;
  }
}

/** Where `candidate` points when it is a symlink whose target does not exist. */
async function danglingLinkTarget(
  fs: PathResolverFs,
  candidate: string,
): Promise<string | undefined> {
  try {
    if ((await fs.lstat(candidate)).kind !== 'symlink') return undefined;
    return path.resolve(path.dirname(candidate), await fs.readlink(candidate));
  } catch (error) {
    if (isMissing(error)) return undefined;
    throw error;
  }
}

/**
 * Resolves `p` (relative to `workspaceRoot`, or absolute) and says whether it stays inside.
 * Rejects only on unexpected I/O errors (e.g. EACCES), or when the root itself does not exist.
 */
export async function resolveWorkspacePath(
  workspaceRoot: string,
  p: string,
  fs: PathResolverFs = nodeFileSystem,
): Promise<WorkspacePath> {
  const root = path.resolve(workspaceRoot);
  const rootReal = await fs.realpath(root);
  const absolutePath = path.resolve(root, p);
  const realPath = await realPathOf(fs, absolutePath);
  if (!isWithin(rootReal, realPath)) {
    const lexicallyInside = isWithin(root, absolutePath) || isWithin(rootReal, absolutePath);
    return {
      kind: 'outside',
      absolutePath,
      realPath,
      reason: lexicallyInside ? 'symlink' : 'path',
    };
  }
  const relativePath = isWithin(root, absolutePath)
    ? path.relative(root, absolutePath)
    : path.relative(rootReal, realPath);
  return { kind: 'inside', absolutePath, realPath, relativePath: toPosix(relativePath) };
}
