/**
 * `replace`: exact-text replacement with an occurrence-count check; an empty `old_string` creates
 * a file that does not exist yet.
 */
import { z } from 'zod';
import { defineTool } from '../defineTool.js';
import { toolFailure, toolSuccess, type ToolContext, type ToolResult } from '../Tool.js';
import { isToolError, loadTextFile, resolveToolPath } from '../workspace/toolPaths.js';
import { lineCount, writeTextFile } from '../workspace/writeTextFile.js';
import { plural } from '../workspace/plural.js';

const ReplaceParams = z
  .object({
    file_path: z
      .string()
      .min(1)
      .describe('Path of the file, relative to the workspace root (or absolute inside it).'),
    old_string: z
      .string()
      .describe(
        'The exact text to replace, including whitespace and indentation; include enough surrounding lines to make it unique. Empty to create a new file.',
      ),
    new_string: z.string().describe('The text to put in its place.'),
    expected_replacements: z
      .number()
      .int()
      .min(1)
      .optional()
      .describe('How many occurrences old_string must have; all are replaced. Default 1.'),
  })
  .refine((p) => p.old_string !== p.new_string, {
    path: ['new_string'],
    message: 'new_string is identical to old_string, so the call would change nothing',
  });

export type ReplaceParams = z.infer<typeof ReplaceParams>;

/** Non-overlapping occurrences of `needle` (non-empty) in `haystack`. */
export function countOccurrences(haystack: string, needle: string): number {
  let count = 0;
  for (
    let at = haystack.indexOf(needle);
    at !== -1;
    at = haystack.indexOf(needle, at + needle.length)
  ) {
    count++;
  }
  return count;
}

/** A `\n`-only edit string adapted to a CRLF file, so copied text matches and stays CRLF. */
function toFileEol(text: string, crlf: boolean): string {
  return crlf && !text.includes('\r') ? text.replaceAll('\n', '\r\n') : text;
}

async function createFile(params: ReplaceParams, context: ToolContext): Promise<ToolResult> {
  const target = await resolveToolPath(context, params.file_path);
  if (isToolError(target)) return target;
  const failed = await writeTextFile(context, target, params.new_string);
  if (failed) return failed;
  return toolSuccess(
    `Created ${target.relativePath} (${plural(lineCount(params.new_string), 'line')}).`,
    `Created ${target.relativePath}`,
  );
}

export const replaceTool = defineTool({
  name: 'replace',
  kind: 'write',
  writesPaths: (p) => [p.file_path],
  description:
    'Replaces exact text in a file. old_string must match the file exactly (copy it from a read) and occur exactly expected_replacements times (default 1); otherwise nothing is changed and the error says how many occurrences were found. With an empty old_string, creates a file that does not exist yet.',
  parameters: ReplaceParams,
  describe: (p) =>
    p.old_string === '' ? `Create ${p.file_path}` : `Edit ${p.file_path} (replace text)`,
  async execute(params, context) {
    const file = await loadTextFile(context, params.file_path);
    if (isToolError(file)) {
      return file.code === 'FILE_NOT_FOUND' && params.old_string === ''
        ? createFile(params, context)
        : file;
    }
    const shown = file.path.relativePath;
    if (params.old_string === '') {
      return toolFailure(
        'FILE_EXISTS',
        `old_string is empty, which means "create a new file", but ${shown} already exists. Give the exact text to replace, or use write_file to overwrite the whole file.`,
      );
    }
    const crlf = file.text.includes('\r\n');
    const oldText = toFileEol(params.old_string, crlf);
    const found = countOccurrences(file.text, oldText);
    const expected = params.expected_replacements ?? 1;
    if (found === 0) {
      return toolFailure(
        'NO_MATCH',
        `old_string was not found in ${shown}; nothing was changed. It must match exactly, including whitespace, indentation and line breaks. Read the file again (it may have changed) and copy the text from it.`,
      );
    }
    if (found !== expected) {
      return toolFailure(
        'MATCH_COUNT_MISMATCH',
        `old_string occurs ${found} times in ${shown}, but expected_replacements is ${expected}; nothing was changed. Add surrounding lines to old_string to make it unique, or set expected_replacements to ${found} to replace every occurrence.`,
      );
    }
    const updated = file.text.split(oldText).join(toFileEol(params.new_string, crlf));
    const failed = await writeTextFile(context, file.path, updated);
    if (failed) return failed;
    const what = found === 1 ? '1 occurrence' : `${found} occurrences`;
    return toolSuccess(`Replaced ${what} in ${shown}.`, `Edited ${shown}`);
  },
});
