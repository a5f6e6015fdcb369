/**
 * Depth-first walk over the files under a workspace directory, in name order, for grep, glob and
 * read_many_files. Symlinked directories are not followed; a symlinked file is visited only when
 * its target is a file inside the workspace. Unreadable directories are skipped.
 */
import path from 'node:path';
import { SKIPPED_DIRECTORIES, TOOL_LIMITS } from '../toolLimits.js';
import type { ToolContext } from '../Tool.js';
import { resolveWorkspacePath } from './resolveWorkspacePath.js';
import type { InsidePath } from './toolPaths.js';

export interface WalkedFile {
  /** Workspace-relative, `/`-separated. */
  readonly relativePath: string;
  /** Relative to the walk's start directory, `/`-separated. */
  readonly pathFromStart: string;
  readonly realPath: string;
}

export interface WalkOptions {
  readonly context: ToolContext;
  /** A directory inside the workspace. */
  readonly start: InsidePath;
  /** Return false to stop the walk. */
  readonly onFile: (file: WalkedFile) => boolean | Promise<boolean>;
  /** Directory names to descend into even though they are normally skipped (`node_modules`, `.git`). */
  readonly include?: ReadonlySet<string>;
}

export type WalkEnd = 'complete' | 'stopped' | 'entry-limit' | 'aborted';

function joinPosix(a: string, b: string): string {
  return a === '' || a === '.' ? b : `${a}/${b}`;
}

interface Frame {
  readonly realDir: string;
  readonly relativeDir: string;
  readonly fromStart: string;
}

/** Walks the tree; says why it ended. */
export async function walkWorkspace(options: WalkOptions): Promise<WalkEnd> {
  const { context } = options;
  const stack: Frame[] = [
    { realDir: options.start.realPath, relativeDir: options.start.relativePath, fromStart: '' },
  ];
  let visited = 0;
  while (stack.length > 0) {
    const frame = stack.pop() as Frame;
    let entries;
    try {
      entries = [...(await context.fs.readdir(frame.realDir))].sort((a, b) =>
        a.name < b.name ? -1 : a.name > b.name ? 1 : 0,
      );
    } catch {
      continue;
    }
    const subdirectories: Frame[] = [];
    for (const entry of entries) {
      if (context.signal?.aborted === true) return 'aborted';
      if (++visited > TOOL_LIMITS.walkMaxEntries) return 'entry-limit';
      const relativePath = joinPosix(frame.relativeDir, entry.name);
      const pathFromStart = joinPosix(frame.fromStart, entry.name);
      const realPath = path.join(frame.realDir, entry.name);
      if (entry.kind === 'directory') {
        const skipped =
          SKIPPED_DIRECTORIES.has(entry.name) && options.include?.has(entry.name) !== true;
        if (!skipped)
          subdirectories.push({
            realDir: realPath,
            relativeDir: relativePath,
            fromStart: pathFromStart,
          });
        continue;
      }
      const file =
        entry.kind === 'file'
          ? realPath
          : entry.kind === 'symlink'
            ? await linkedFile(context, realPath)
            : undefined;
      if (file === undefined) continue;
      if (!(await options.onFile({ relativePath, pathFromStart, realPath: file })))
        return 'stopped';
    }
    stack.push(...subdirectories.reverse());
  }
  return 'complete';
}

/** The real path of a symlink's target when it is a regular file inside the workspace. */
async function linkedFile(context: ToolContext, linkPath: string): Promise<string | undefined> {
  try {
    const resolved = await resolveWorkspacePath(context.workspaceRoot, linkPath, context.fs);
    if (resolved.kind !== 'inside') return undefined;
    const stat = await context.fs.stat(resolved.realPath);
    return stat.kind === 'file' ? resolved.realPath : undefined;
  } catch {
    return undefined;
  }
}
