/** `read_file`: a text file's content, whole or a window of lines, within the read caps. */
import { z } from 'zod';
import { defineTool } from '../defineTool.js';
import { toolFailure, toolSuccess } from '../Tool.js';
import { TOOL_LIMITS } from '../toolLimits.js';
import { isToolError, loadTextFile } from '../workspace/toolPaths.js';
import { splitLines } from '../workspace/textLines.js';
import { capReason, renderLineWindow } from './renderLineWindow.js';
import { plural } from '../workspace/plural.js';

const ReadFileParams = z.object({
  file_path: z
    .string()
    .min(1)
    .describe('Path of the file, relative to the workspace root (or absolute inside it).'),
  offset: z
    .number()
    .int()
    .min(0)
    .optional()
    .describe('Number of lines to skip: 0-based index of the first line returned. Default 0.'),
  limit: z
    .number()
    .int()
    .min(1)
    .optional()
    .describe(
      `Maximum number of lines to return. Default and maximum ${TOOL_LIMITS.readMaxLines}.`,
    ),
  line_numbers: z
    .boolean()
    .optional()
    .describe(
      'Prefix each line with its 1-based number ("  12| "). Default false: the exact text, ready to copy into replace.old_string.',
    ),
});

export type ReadFileParams = z.infer<typeof ReadFileParams>;

export const readFileTool = defineTool({
  name: 'read_file',
  kind: 'read',
  description: `Reads a text file in the workspace. Without offset/limit it returns the whole file, exactly (up to ${TOOL_LIMITS.readMaxLines} lines / ${TOOL_LIMITS.readMaxBytes / 1024} KB); when only part is returned, a first line in [brackets] says which lines were shown and the offset to continue from.`,
  parameters: ReadFileParams,
  describe: (params) => `Read ${params.file_path}`,
  async execute(params, context) {
    const file = await loadTextFile(context, params.file_path);
    if (isToolError(file)) return file;
    const shown = file.path.relativePath;
    const { lines } = splitLines(file.text);
    const offset = params.offset ?? 0;
    if (lines.length === 0) return toolSuccess(`[${shown} is empty.]`, `Read ${shown} (empty)`);
    if (offset >= lines.length) {
      return toolFailure(
        'LINE_OUT_OF_RANGE',
        `offset ${offset} is past the end of ${shown}, which has ${plural(lines.length, 'line')}. Use an offset below ${lines.length}.`,
      );
    }
    const count = params.limit ?? lines.length;
    const window = renderLineWindow({
      lines,
      start: offset,
      count,
      lineNumbers: params.line_numbers ?? false,
    });
    const whole = offset === 0 && window.end === lines.length && window.cappedBy === undefined;
    if (whole && params.line_numbers !== true) {
      return toolSuccess(file.text, `Read ${plural(lines.length, 'line')} from ${shown}`);
    }
    const range = `lines ${offset + 1}-${window.end} of ${lines.length}`;
    const more =
      window.end < lines.length
        ? ` To read more, call read_file with offset=${window.end}.`
        : ' This is the end of the file.';
    const header = whole
      ? ''
      : `[Partial content of ${shown}: ${range}${capReason(window)}.${more}]\n`;
    return toolSuccess(`${header}${window.text}`, `Read ${range} from ${shown}`);
  },
});
