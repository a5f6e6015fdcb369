/**
 * `grep`: a JavaScript regular expression searched line by line through the workspace's text
 * files (binary files, files over the size cap, node_modules and .git are skipped).
 */
import path from 'node:path';
import { z } from 'zod';
import { errorMessage } from '../../utils/errors.js';
import { defineTool } from '../defineTool.js';
import { globToRegExp, InvalidGlobError } from '../glob/globToRegExp.js';
import { toolFailure, toolSuccess, type ToolContext, type ToolErrorResult } from '../Tool.js';
import { TOOL_LIMITS } from '../toolLimits.js';
import { grepFiles, newGrepState, type GrepState } from './grepFiles.js';
import {
  fsErrorResult,
  isToolError,
  resolveToolPath,
  type InsidePath,
} from '../workspace/toolPaths.js';
import { walkWorkspace, type WalkEnd, type WalkedFile } from '../workspace/walkWorkspace.js';
import { walkLimitNotice } from '../workspace/walkNotice.js';
import { abortedResult } from '../workspace/writeTextFile.js';

const GrepParams = z.object({
  pattern: z
    .string()
    .min(1)
    .describe(
      'JavaScript regular expression, matched against each line (e.g. "function\\s+load").',
    ),
  path: z
    .string()
    .min(1)
    .optional()
    .describe('File or directory to search, relative to the workspace root. Default: the root.'),
  include: z
    .string()
    .min(1)
    .optional()
    .describe(
      'Glob filter for the files searched, e.g. "*.ts" (matched against the file name) or "src/**/*.{ts,tsx}" (matched against the path below `path`).',
    ),
  ignore_case: z.boolean().optional().describe('Match case-insensitively. Default false.'),
});

type GrepParams = z.infer<typeof GrepParams>;

type FileFilter = (file: WalkedFile) => boolean;

function compileFilter(include: string | undefined): FileFilter | undefined | ToolErrorResult {
  if (include === undefined) return undefined;
  try {
    const regex = globToRegExp(include.replace(/^(\.\/)+/, ''));
    return include.includes('/')
      ? (file) => regex.test(file.pathFromStart)
      : (file) => regex.test(path.posix.basename(file.relativePath));
  } catch (error) {
    if (error instanceof InvalidGlobError) return toolFailure('INVALID_PATTERN', error.message);
    throw error;
  }
}

/** The files to search: `start` itself, or the files below it that pass the filter. */
async function candidates(
  context: ToolContext,
  start: InsidePath,
  filter: FileFilter | undefined,
): Promise<{ kind: 'files'; files: WalkedFile[]; end: WalkEnd } | ToolErrorResult> {
  try {
    if ((await context.fs.stat(start.realPath)).kind === 'file') {
      const only: WalkedFile = {
        relativePath: start.relativePath,
        pathFromStart: path.posix.basename(start.relativePath),
        realPath: start.realPath,
      };
      return { kind: 'files', files: [only], end: 'complete' };
    }
  } catch (error) {
    return fsErrorResult(error, start.relativePath);
  }
  const files: WalkedFile[] = [];
  const end = await walkWorkspace({
    context,
    start,
    onFile: (file) => {
      if (!filter || filter(file)) files.push(file);
      return true;
    },
  });
  return { kind: 'files', files, end };
}

function report(params: GrepParams, search: GrepState, end: WalkEnd): string {
  const where = params.path ?? 'the workspace';
  const notes: string[] = [];
  if (end === 'stopped') {
    notes.push(
      `[Showing the first ${search.matches} matches; there are more. Narrow the path or include filter, or make the pattern more specific.]`,
    );
  }
  const limit = walkLimitNotice(end);
  if (limit !== undefined) notes.push(limit);
  if (search.skippedBinary + search.skippedLarge > 0) {
    notes.push(
      `[Not searched: ${search.skippedBinary} binary files, ${search.skippedLarge} files over ${TOOL_LIMITS.grepMaxFileBytes / (1024 * 1024)} MB.]`,
    );
  }
  const head =
    search.matches === 0 ? [`No matches for /${params.pattern}/ in ${where}.`] : search.lines;
  return [...head, ...notes].join('\n');
}

export const grepTool = defineTool({
  name: 'grep',
  kind: 'read',
  description: `Searches text files for a JavaScript regular expression and lists matching lines as "path:line: text" (at most ${TOOL_LIMITS.grepMaxMatches} matches, lines cut at ${TOOL_LIMITS.grepMaxLineChars} characters). Skips binary files, files over ${TOOL_LIMITS.grepMaxFileBytes / (1024 * 1024)} MB, node_modules and .git.`,
  parameters: GrepParams,
  describe: (p) => `Search for /${p.pattern}/`,
  async execute(params, context) {
    let regex: RegExp;
    try {
      regex = new RegExp(params.pattern, params.ignore_case === true ? 'i' : '');
    } catch (error) {
      return toolFailure(
        'INVALID_PATTERN',
        `pattern is not a valid JavaScript regular expression: ${errorMessage(error)}`,
      );
    }
    const filter = compileFilter(params.include);
    if (typeof filter === 'object') return filter;
    const start = await resolveToolPath(context, params.path ?? '.');
    if (isToolError(start)) return start;
    const found = await candidates(context, start, filter);
    if (isToolError(found)) return found;
    if (found.end === 'aborted') return abortedResult();
    const state = newGrepState(regex);
    const searched = await grepFiles(context, state, found.files);
    if (searched === 'aborted') return abortedResult();
    const end: WalkEnd = searched === 'stopped' ? 'stopped' : found.end;
    return toolSuccess(report(params, state, end), `${state.matches} matches`);
  },
});
