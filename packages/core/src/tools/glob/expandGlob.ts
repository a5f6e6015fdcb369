/**
 * Finds the workspace files a glob pattern matches, for the glob tool and read_many_files. The
 * pattern's literal leading directories are resolved like any path (so `../` and absolute patterns
 * are checked against the workspace root); the rest is matched while walking from there.
 */
import path from 'node:path';
import { errnoCode } from '../ports/FileSystem.js';
import { toolFailure, type ToolContext, type ToolErrorResult } from '../Tool.js';
import { SKIPPED_DIRECTORIES } from '../toolLimits.js';
import { fsErrorResult, isToolError, resolveToolPath } from '../workspace/toolPaths.js';
import { walkWorkspace, type WalkEnd, type WalkedFile } from '../workspace/walkWorkspace.js';
import { globToRegExp, InvalidGlobError, splitGlobBase } from './globToRegExp.js';

export interface GlobRequest {
  readonly context: ToolContext;
  readonly pattern: string;
  /** Directory the pattern is relative to (workspace-relative or absolute); default the root. */
  readonly base?: string;
  /** Return at most this many matches. */
  readonly maxResults: number;
}

export interface GlobMatches {
  readonly kind: 'matches';
  readonly files: readonly WalkedFile[];
  /** More than `maxResults` files matched; `files` holds the first `maxResults`. */
  readonly truncated: boolean;
  /** Why the walk ended ('stopped' when truncated). */
  readonly end: WalkEnd;
}

function compile(rest: string, pattern: string): RegExp | ToolErrorResult {
  if (rest.split('/').includes('..')) {
    return toolFailure(
      'INVALID_PATTERN',
      `Glob pattern "${pattern}" has ".." after a wildcard; put ".." only in the leading directories.`,
    );
  }
  try {
    return globToRegExp(rest);
  } catch (error) {
    if (error instanceof InvalidGlobError) return toolFailure('INVALID_PATTERN', error.message);
    throw error;
  }
}

/** Matches in walk order (depth-first, by name), or an error result. */
export async function expandGlob(request: GlobRequest): Promise<GlobMatches | ToolErrorResult> {
  const { context } = request;
  const pattern = request.pattern.replace(/^(\.\/)+/, '');
  const { base, rest } = splitGlobBase(pattern);
  const regex = compile(rest, request.pattern);
  if (!(regex instanceof RegExp)) return regex;
  const startPath = path.resolve(context.workspaceRoot, request.base ?? '.', base);
  const start = await resolveToolPath(context, startPath);
  if (isToolError(start)) return start;
  try {
    if ((await context.fs.stat(start.realPath)).kind !== 'directory') {
      return { kind: 'matches', files: [], truncated: false, end: 'complete' };
    }
  } catch (error) {
    if (errnoCode(error) === 'ENOENT')
      return { kind: 'matches', files: [], truncated: false, end: 'complete' };
    return fsErrorResult(error, start.relativePath);
  }
  const include = new Set([...SKIPPED_DIRECTORIES].filter((name) => pattern.includes(name)));
  const files: WalkedFile[] = [];
  const end = await walkWorkspace({
    context,
    start,
    include,
    onFile: (file) => {
      if (regex.test(file.pathFromStart)) files.push(file);
      return files.length <= request.maxResults;
    },
  });
  const truncated = files.length > request.maxResults;
  return { kind: 'matches', files: files.slice(0, request.maxResults), truncated, end };
}
