/**
 * Turns read_many_files' `paths` into the files to read: a literal file is itself, a directory
 * stands for every file below it, anything else with glob characters is a pattern. Paths leaving
 * the workspace make the whole call fail; duplicates are read once.
 */
import { errnoCode } from '../ports/FileSystem.js';
import { expandGlob } from '../glob/expandGlob.js';
import { hasGlobChars } from '../glob/globToRegExp.js';
import type { ToolContext, ToolErrorResult } from '../Tool.js';
import { TOOL_LIMITS } from '../toolLimits.js';
import { fsErrorResult, isToolError, resolveToolPath } from '../workspace/toolPaths.js';
import type { WalkEnd } from '../workspace/walkWorkspace.js';

export interface RequestedFile {
  readonly relativePath: string;
  readonly realPath: string;
}

export interface RequestedFiles {
  readonly kind: 'files';
  readonly files: readonly RequestedFile[];
  /** Entries that named nothing: missing literal paths and patterns without matches. */
  readonly unmatched: readonly string[];
  /** More files matched than `readManyMaxFiles`. */
  readonly truncated: boolean;
  readonly walkEnds: readonly WalkEnd[];
}

type EntryFiles =
  | { readonly kind: 'found'; readonly files: readonly RequestedFile[]; readonly end?: WalkEnd }
  | ToolErrorResult;

async function filesForEntry(
  context: ToolContext,
  entry: string,
  budget: number,
): Promise<EntryFiles> {
  const literal = await resolveToolPath(context, entry);
  if (isToolError(literal)) {
    // `a/*/../../..` style patterns are checked by expandGlob; a plain path outside is an error.
    if (!hasGlobChars(entry)) return literal;
  } else {
    try {
      const stat = await context.fs.stat(literal.realPath);
      if (stat.kind !== 'directory') return { kind: 'found', files: [literal] };
      const below = await expandGlob({ context, pattern: '**', base: entry, maxResults: budget });
      return isToolError(below) ? below : { kind: 'found', files: below.files, end: below.end };
    } catch (error) {
      const code = errnoCode(error);
      if (code !== 'ENOENT' && code !== 'ENOTDIR')
        return fsErrorResult(error, literal.relativePath);
      if (!hasGlobChars(entry)) return { kind: 'found', files: [] };
    }
  }
  const matched = await expandGlob({ context, pattern: entry, maxResults: budget });
  return isToolError(matched) ? matched : { kind: 'found', files: matched.files, end: matched.end };
}

export async function collectRequestedFiles(
  context: ToolContext,
  entries: readonly string[],
): Promise<RequestedFiles | ToolErrorResult> {
  const max = TOOL_LIMITS.readManyMaxFiles;
  const byRealPath = new Map<string, RequestedFile>();
  const unmatched: string[] = [];
  const walkEnds: WalkEnd[] = [];
  let truncated = false;
  for (const entry of entries) {
    const found = await filesForEntry(context, entry, max + 1);
    if (isToolError(found)) return found;
    if (found.end !== undefined) walkEnds.push(found.end);
    if (found.files.length === 0) unmatched.push(entry);
    for (const file of found.files) {
      if (byRealPath.has(file.realPath)) continue;
      if (byRealPath.size === max) {
        truncated = true;
        break;
      }
      byRealPath.set(file.realPath, { relativePath: file.relativePath, realPath: file.realPath });
    }
  }
  return { kind: 'files', files: [...byRealPath.values()], unmatched, truncated, walkEnds };
}
