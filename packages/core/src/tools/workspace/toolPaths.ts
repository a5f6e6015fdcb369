/**
 * The path and file steps every file tool shares, returning tool error results instead of throwing:
 * resolve inside the workspace, map file-system errors to codes, load a text file with its checks.
 */
import { errorMessage } from '../../utils/errors.js';
import { errnoCode } from '../ports/FileSystem.js';
import { toolFailure, type ToolContext, type ToolErrorResult } from '../Tool.js';
import { TOOL_LIMITS } from '../toolLimits.js';
import { isBinaryContent } from './isBinaryContent.js';
import { resolveWorkspacePath, type WorkspacePath } from './resolveWorkspacePath.js';

export type InsidePath = Extract<WorkspacePath, { kind: 'inside' }>;

export function isToolError(value: { readonly kind: string }): value is ToolErrorResult {
  return value.kind === 'error';
}

/** Resolves a path parameter, or the PATH_OUTSIDE_WORKSPACE error the model sees. */
export async function resolveToolPath(
  context: ToolContext,
  p: string,
): Promise<InsidePath | ToolErrorResult> {
  const resolved = await resolveWorkspacePath(context.workspaceRoot, p, context.fs);
  if (resolved.kind === 'inside') return resolved;
  const how =
    resolved.reason === 'symlink'
      ? ` (a symlink on the way leads to ${resolved.realPath})`
      : ` (it resolves to ${resolved.absolutePath})`;
  return toolFailure(
    'PATH_OUTSIDE_WORKSPACE',
    `Path "${p}" is outside the workspace root ${context.workspaceRoot}${how}. Only files inside the workspace can be used; give a path relative to the workspace root.`,
  );
}

/** A file-system error as the error result the model sees. */
export function fsErrorResult(error: unknown, displayPath: string): ToolErrorResult {
  switch (errnoCode(error)) {
    case 'ENOENT':
      return toolFailure(
        'FILE_NOT_FOUND',
        `${displayPath} does not exist. Check the path (list_directory or glob can help find it).`,
      );
    case 'ENOTDIR':
      return toolFailure(
        'NOT_A_DIRECTORY',
        `A part of ${displayPath} is a file, not a directory. Check the path.`,
      );
    case 'EISDIR':
      return toolFailure(
        'NOT_A_FILE',
        `${displayPath} is a directory, not a file. Use list_directory to see its entries.`,
      );
    case 'EACCES':
    case 'EPERM':
      return toolFailure('PERMISSION_DENIED', `Permission denied for ${displayPath}.`);
    case undefined:
    default:
      return toolFailure('IO_ERROR', `Could not access ${displayPath}: ${errorMessage(error)}`);
  }
}

export interface LoadedTextFile {
  readonly kind: 'text';
  readonly path: InsidePath;
  readonly text: string;
}

/**
 * Checks (is a regular file, not over the size limit, not binary) and reads a UTF-8 file at an
 * already-resolved real path; `shown` names it in messages.
 */
export async function readCheckedText(
  context: ToolContext,
  realPath: string,
  shown: string,
): Promise<{ readonly kind: 'text'; readonly text: string } | ToolErrorResult> {
  try {
    const stat = await context.fs.stat(realPath);
    if (stat.kind === 'directory') return fsErrorResult({ code: 'EISDIR' }, shown);
    if (stat.kind !== 'file') {
      return toolFailure(
        'NOT_A_FILE',
        `${shown} is not a regular file (it is a device, socket or pipe).`,
      );
    }
    if (stat.size > TOOL_LIMITS.maxFileBytes) {
      return toolFailure(
        'FILE_TOO_LARGE',
        `${shown} is ${stat.size} bytes, over the ${TOOL_LIMITS.maxFileBytes}-byte limit of the file tools. Inspect it with run_shell_command (e.g. \`sed -n '1,200p' ${shown}\`, \`grep -n\`).`,
      );
    }
    const bytes = await context.fs.readFile(realPath);
    if (isBinaryContent(bytes)) {
      return toolFailure(
        'BINARY_FILE',
        `${shown} is a binary file (it contains NUL bytes), so it cannot be shown or edited as text. Inspect it with run_shell_command (e.g. \`file ${shown}\`, \`xxd ${shown} | head\`).`,
      );
    }
    return { kind: 'text', text: Buffer.from(bytes).toString('utf8') };
  } catch (error) {
    return fsErrorResult(error, shown);
  }
}

/**
 * Resolves a path parameter, then reads it with `readCheckedText`. A file that does not exist is a
 * FILE_NOT_FOUND error (tools that may create it check for that code).
 */
export async function loadTextFile(
  context: ToolContext,
  p: string,
): Promise<LoadedTextFile | ToolErrorResult> {
  const resolved = await resolveToolPath(context, p);
  if (isToolError(resolved)) return resolved;
  const read = await readCheckedText(context, resolved.realPath, resolved.relativePath);
  if (isToolError(read)) return read;
  return { kind: 'text', path: resolved, text: read.text };
}
