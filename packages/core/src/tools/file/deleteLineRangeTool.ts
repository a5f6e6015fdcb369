/** `delete_line_range`: removes lines start_line..end_line (1-based, inclusive) from a file. */
import { z } from 'zod';
import { defineTool } from '../defineTool.js';
import { toolFailure, toolSuccess } from '../Tool.js';
import { joinLines, splitLines } from '../workspace/textLines.js';
import { isToolError, loadTextFile } from '../workspace/toolPaths.js';
import { writeTextFile } from '../workspace/writeTextFile.js';
import { plural } from '../workspace/plural.js';
import { END_BEFORE_START, endNotBeforeStart } from './lineRange.js';

const DeleteLineRangeParams = z
  .object({
    file_path: z
      .string()
      .min(1)
      .describe(
        'Path of an existing file, relative to the workspace root (or absolute inside it).',
      ),
    start_line: z.number().int().min(1).describe('First line to delete, 1-based.'),
    end_line: z
      .number()
      .int()
      .min(1)
      .describe('Last line to delete, 1-based, inclusive; past the end means "to the end".'),
  })
  .refine(endNotBeforeStart, END_BEFORE_START);

export const deleteLineRangeTool = defineTool({
  name: 'delete_line_range',
  kind: 'write',
  writesPaths: (p) => [p.file_path],
  description:
    'Deletes lines start_line to end_line (1-based, inclusive) from a text file. An end_line past the end deletes to the end of the file.',
  parameters: DeleteLineRangeParams,
  describe: (p) => `Delete lines ${p.start_line}-${p.end_line} of ${p.file_path}`,
  async execute(params, context) {
    const file = await loadTextFile(context, params.file_path);
    if (isToolError(file)) return file;
    const shown = file.path.relativePath;
    const text = splitLines(file.text);
    const total = text.lines.length;
    if (params.start_line > total) {
      return toolFailure(
        'LINE_OUT_OF_RANGE',
        `start_line ${params.start_line} is past the end of ${shown}, which has ${total} lines; nothing was deleted.`,
      );
    }
    const end = Math.min(params.end_line, total);
    const lines = [...text.lines];
    lines.splice(params.start_line - 1, end - params.start_line + 1);
    const failed = await writeTextFile(context, file.path, joinLines({ ...text, lines }));
    if (failed) return failed;
    const clamped = end < params.end_line ? ` (the file had only ${plural(total, 'line')})` : '';
    return toolSuccess(
      `Deleted lines ${params.start_line}-${end} (${plural(end - params.start_line + 1, 'line')}) from ${shown}${clamped}; the file now has ${plural(lines.length, 'line')}.`,
      `Edited ${shown}`,
    );
  },
});
