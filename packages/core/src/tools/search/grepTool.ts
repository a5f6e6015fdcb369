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
import { isBinaryContent } from '../workspace/isBinaryContent.js';
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

interface Search {
  readonly regex: RegExp;
  readonly filter: ((file: WalkedFile) => boolean) | undefined;
  readonly lines: string[];
  bytes: number;
  matches: number;
  skippedBinary: number;
  skippedLarge: number;
}

function compileFilter(include: string | undefined): Search['filter'] | ToolErrorResult {
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

function shorten(line: string): string {
  const max = TOOL_LIMITS.grepMaxLineChars;
  return line.length > max ? `${line.slice(0, max)}… [line cut at ${max} characters]` : line;
}

/** Searches one file; returns false once the match cap is reached. */
async function searchFile(
  context: ToolContext,
  search: Search,
  file: WalkedFile,
  filtered = true,
): Promise<boolean> {
  if (filtered && search.filter && !search.filter(file)) return true;
  try {
    if ((await context.fs.stat(file.realPath)).size > TOOL_LIMITS.grepMaxFileBytes) {
      search.skippedLarge++;
      return true;
    }
    const bytes = await context.fs.readFile(file.realPath);
    if (isBinaryContent(bytes)) {
      search.skippedBinary++;
      return true;
    }
    const lines = Buffer.from(bytes).toString('utf8').split('\n');
    for (let i = 0; i < lines.length; i++) {
      const line = (lines[i] as string).replace(/\r$/, '');
      if (!search.regex.test(line)) continue;
      if (search.matches >= TOOL_LIMITS.grepMaxMatches) return false;
      const entry = `${file.relativePath}:${i + 1}: ${shorten(line)}`;
      const cost = Buffer.byteLength(entry, 'utf8') + 1;
      if (search.bytes + cost > TOOL_LIMITS.grepMaxOutputBytes) return false;
      search.lines.push(entry);
      search.bytes += cost;
      search.matches++;
    }
  } catch {
    // A file that vanished or cannot be read is simply not searched.
  }
  return true;
}

async function runSearch(
  context: ToolContext,
  search: Search,
  start: InsidePath,
): Promise<WalkEnd | ToolErrorResult> {
  try {
    const stat = await context.fs.stat(start.realPath);
    if (stat.kind === 'file') {
      const only: WalkedFile = {
        relativePath: start.relativePath,
        pathFromStart: path.posix.basename(start.relativePath),
        realPath: start.realPath,
      };
      return (await searchFile(context, search, only, false)) ? 'complete' : 'stopped';
    }
  } catch (error) {
    return fsErrorResult(error, start.relativePath);
  }
  return walkWorkspace({ context, start, onFile: (file) => searchFile(context, search, file) });
}

function report(params: GrepParams, search: Search, end: WalkEnd): string {
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
    const search: Search = {
      regex,
      filter,
      lines: [],
      bytes: 0,
      matches: 0,
      skippedBinary: 0,
      skippedLarge: 0,
    };
    const end = await runSearch(context, search, start);
    if (typeof end !== 'string') return end;
    if (end === 'aborted') return abortedResult();
    return toolSuccess(report(params, search, end), `${search.matches} matches`);
  },
});
