/** The write step the editing tools share: abort check, parent directories, atomic replace. */
import path from 'node:path';
import { toolFailure, type ToolContext, type ToolErrorResult } from '../Tool.js';
import { fsErrorResult, type InsidePath } from './toolPaths.js';

export function abortedResult(): ToolErrorResult {
  return toolFailure(
    'ABORTED',
    'The operation was cancelled before it finished; nothing was changed.',
  );
}

/** Writes `content` to an already-resolved path; returns an error result, or undefined on success. */
export async function writeTextFile(
  context: ToolContext,
  target: InsidePath,
  content: string,
): Promise<ToolErrorResult | undefined> {
  if (context.signal?.aborted === true) return abortedResult();
  try {
    await context.fs.mkdir(path.dirname(target.realPath), { recursive: true });
    await context.fs.writeFile(target.realPath, content);
    return undefined;
  } catch (error) {
    return fsErrorResult(error, target.relativePath);
  }
}

export function lineCount(text: string): number {
  if (text === '') return 0;
  return text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
}
