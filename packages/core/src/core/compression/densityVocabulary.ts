/**
 * The words high-density shares with the tools and the CLI: which tools read and write files, the
 * pointer left where a result was pruned, and the one layout of an inlined file. The `@` processor,
 * `read_many_files` and the dedup pass all use `formatFileInclusion` / `findFileInclusions`, so what
 * one writes the other recognises.
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

export const INCLUSION_CLOSE = '--- End of content ---';

/** `--- <path> ---` on a line of its own. */
const OPEN_LINE = /^--- (.+) ---$/;

/** One file's content, between its own opening and closing marker lines. */
export function formatFileInclusion(filePath: string, content: string): string {
  const body = content.endsWith('\n') ? content : `${content}\n`;
  return `--- ${filePath} ---\n${body}${INCLUSION_CLOSE}`;
}

/** Several files, each with its own marker pair, separated by newlines. */
export function formatFileInclusions(
  files: readonly { readonly path: string; readonly content: string }[],
): string {
  return files.map((file) => formatFileInclusion(file.path, file.content)).join('\n');
}

export interface FileInclusionSpan {
  /** The path exactly as written in the opening marker. */
  readonly filePath: string;
  /** Offset of the opening marker line. */
  readonly start: number;
  /** Offset just past the closing marker line (and its newline, if any). */
  readonly end: number;
}

/**
 * The well-formed inclusions in `text`, in order. An opening marker counts only when the next
 * marker line after it is a closing one: an opener followed by another opener (a header such as
 * `--- Content from referenced files ---`) is not an inclusion, and neither is an unclosed one.
 */
export function findFileInclusions(text: string): FileInclusionSpan[] {
  if (!text.includes(INCLUSION_CLOSE)) return [];
  const spans: FileInclusionSpan[] = [];
  let open: { filePath: string; start: number } | undefined;
  let at = text.indexOf('--- ');
  while (at !== -1) {
    if (at !== 0 && text[at - 1] !== '\n') {
      at = text.indexOf('--- ', at + 1);
      continue;
    }
    const newline = text.indexOf('\n', at);
    const next = newline === -1 ? text.length : newline + 1;
    const line = text.slice(at, newline === -1 ? text.length : newline).replace(/\r$/, '');
    if (line === INCLUSION_CLOSE) {
      if (open) spans.push({ ...open, end: next });
      open = undefined;
    } else {
      const match = OPEN_LINE.exec(line);
      if (match?.[1] !== undefined) open = { filePath: match[1].trim(), start: at };
    }
    at = newline === -1 ? -1 : text.indexOf('--- ', next);
  }
  return spans;
}
