/**
 * The words high-density shares with the tools and the CLI: which tools read and write files, the
 * pointer left where a result was pruned, and the one layout of an inlined file (defined in
 * `fileInclusionFormat.ts`). The `@` processor, `read_many_files` and the dedup pass all use
 * `formatFileInclusion` / `findFileInclusions`, so what one writes the other recognises.
 */

export const READ_TOOLS = [
  'read_file',
  'read_line_range',
  'read_many_files',
  'ast_read_file',
] as const;
export const WRITE_TOOLS = [
  'write_file',
  'ast_edit',
  'replace',
  'insert_at_line',
  'delete_line_range',
] as const;

/**
 * Tools that delete a file (not in the spec's write list; imported Codex sessions produce
 * `delete_file`). A successful delete makes earlier reads of the file stale, like a write.
 */
export const DELETE_TOOLS = ['delete_file'] as const;

/** The tool that returns removed content by its recall id. */
export const RECALL_TOOL = 'recall';

export type ReadToolName = (typeof READ_TOOLS)[number];
export type WriteToolName = (typeof WRITE_TOOLS)[number];

const READ_SET: ReadonlySet<string> = new Set(READ_TOOLS);
const WRITE_SET: ReadonlySet<string> = new Set(WRITE_TOOLS);

export function isReadTool(name: string): name is ReadToolName {
  return READ_SET.has(name);
}

export function isWriteTool(name: string): name is WriteToolName {
  return WRITE_SET.has(name);
}

export function isDeleteTool(name: string): boolean {
  return (DELETE_TOOLS as readonly string[]).includes(name);
}

/** What recency pruning leaves in place of a tool result (REQ-HD-007.2, verbatim). */
export const PRUNED_POINTER = '[Result pruned — re-run tool to retrieve]';

export {
  findFileInclusions,
  formatFileInclusion,
  formatFileInclusions,
  INCLUSION_CLOSE,
  inclusionTag,
  type FileInclusionSpan,
} from './fileInclusionFormat.js';
