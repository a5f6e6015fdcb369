/** `list_directory`: the entries of one workspace directory, directories first. */
import { z } from 'zod';
import { defineTool } from '../defineTool.js';
import type { DirEntry } from '../ports/FileSystem.js';
import { toolFailure, toolSuccess } from '../Tool.js';
import { TOOL_LIMITS } from '../toolLimits.js';
import { fsErrorResult, isToolError, resolveToolPath } from '../workspace/toolPaths.js';

const ListDirectoryParams = z.object({
  path: z
    .string()
    .min(1)
    .optional()
    .describe('Directory to list, relative to the workspace root. Default: the root.'),
});

const SUFFIX: Record<DirEntry['kind'], string> = {
  directory: '/',
  file: '',
  symlink: '@',
  other: '',
};

function byKindThenName(a: DirEntry, b: DirEntry): number {
  const aDir = a.kind === 'directory' ? 0 : 1;
  const bDir = b.kind === 'directory' ? 0 : 1;
  if (aDir !== bDir) return aDir - bDir;
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

export const listDirectoryTool = defineTool({
  name: 'list_directory',
  kind: 'read',
  description: `Lists a directory's entries, one per line: directories first with a trailing "/", then files; symlinks end in "@". At most ${TOOL_LIMITS.listMaxEntries} entries.`,
  parameters: ListDirectoryParams,
  describe: (p) => `List ${p.path ?? '.'}`,
  async execute(params, context) {
    const target = await resolveToolPath(context, params.path ?? '.');
    if (isToolError(target)) return target;
    const shown = target.relativePath;
    let entries: DirEntry[];
    try {
      if ((await context.fs.stat(target.realPath)).kind !== 'directory') {
        return toolFailure(
          'NOT_A_DIRECTORY',
          `${shown} is a file, not a directory. Use read_file to read it.`,
        );
      }
      entries = [...(await context.fs.readdir(target.realPath))].sort(byKindThenName);
    } catch (error) {
      return fsErrorResult(error, shown);
    }
    if (entries.length === 0) return toolSuccess(`${shown} is empty.`, `Listed ${shown} (empty)`);
    const listed = entries
      .slice(0, TOOL_LIMITS.listMaxEntries)
      .map((entry) => `${entry.name}${SUFFIX[entry.kind]}`);
    if (entries.length > TOOL_LIMITS.listMaxEntries) {
      listed.push(
        `[Showing ${TOOL_LIMITS.listMaxEntries} of ${entries.length} entries. Use glob with a pattern to find specific files.]`,
      );
    }
    return toolSuccess(listed.join('\n'), `Listed ${entries.length} entries in ${shown}`);
  },
});
