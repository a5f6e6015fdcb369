/** `glob`: the workspace files whose path matches a glob pattern. */
import { z } from 'zod';
import { defineTool } from '../defineTool.js';
import { expandGlob } from '../glob/expandGlob.js';
import { toolSuccess } from '../Tool.js';
import { TOOL_LIMITS } from '../toolLimits.js';
import { isToolError } from '../workspace/toolPaths.js';
import { abortedResult } from '../workspace/writeTextFile.js';
import { walkLimitNotice } from '../workspace/walkNotice.js';

const GlobParams = z.object({
  pattern: z
    .string()
    .min(1)
    .describe(
      'Glob pattern relative to path: ** matches any number of directories, * and ? match within one path segment, {a,b} alternatives, [abc] character classes. Example: "src/**/*.{ts,tsx}".',
    ),
  path: z
    .string()
    .min(1)
    .optional()
    .describe('Directory to search from, relative to the workspace root. Default: the root.'),
});

export const globTool = defineTool({
  name: 'glob',
  kind: 'read',
  description: `Finds files (not directories) whose path matches a glob pattern, listed workspace-relative in depth-first name order, at most ${TOOL_LIMITS.globMaxResults}. node_modules and .git are skipped unless the pattern names them; symlinked directories are not followed.`,
  parameters: GlobParams,
  describe: (p) => `Find files matching ${p.pattern}`,
  async execute(params, context) {
    const found = await expandGlob({
      context,
      pattern: params.pattern,
      ...(params.path === undefined ? {} : { base: params.path }),
      maxResults: TOOL_LIMITS.globMaxResults,
    });
    if (isToolError(found)) return found;
    if (found.end === 'aborted') return abortedResult();
    const where = params.path ?? 'the workspace';
    const notes: string[] = [];
    if (found.truncated) {
      notes.push(
        `[Showing the first ${TOOL_LIMITS.globMaxResults} matches; more files match. Use a narrower pattern or path to see the rest.]`,
      );
    }
    const limit = walkLimitNotice(found.end);
    if (limit !== undefined) notes.push(limit);
    if (found.files.length === 0) {
      return toolSuccess(
        [`No files match "${params.pattern}" in ${where}.`, ...notes].join('\n'),
        'No matches',
      );
    }
    const list = found.files.map((file) => file.relativePath).join('\n');
    return toolSuccess(
      [list, ...notes].join('\n'),
      `Found ${found.files.length}${found.truncated ? '+' : ''} files`,
    );
  },
});
