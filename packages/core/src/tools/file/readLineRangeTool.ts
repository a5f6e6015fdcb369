/** `read_line_range`: lines start_line..end_line (1-based, inclusive) of a text file. */
import { z } from 'zod';
import { defineTool } from '../defineTool.js';
import { toolFailure, toolSuccess } from '../Tool.js';
import { TOOL_LIMITS } from '../toolLimits.js';
import { isToolError, loadTextFile } from '../workspace/toolPaths.js';
import { splitLines } from '../workspace/textLines.js';
import { capReason, renderLineWindow } from './renderLineWindow.js';
import { plural } from '../workspace/plural.js';
import { END_BEFORE_START, endNotBeforeStart } from './lineRange.js';

const ReadLineRangeParams = z
  .object({
    file_path: z
      .string()
      .min(1)
      .describe('Path of the file, relative to the workspace root (or absolute inside it).'),
    start_line: z.number().int().min(1).describe('First line to return, 1-based.'),
    end_line: z.number().int().min(1).describe('Last line to return, 1-based, inclusive.'),
    line_numbers: z
      .boolean()
      .optional()
      .describe('Prefix each line with its 1-based number ("  12| "). Default false.'),
  })
  .refine(endNotBeforeStart, END_BEFORE_START);

export const readLineRangeTool = defineTool({
  name: 'read_line_range',
  kind: 'read',
  description: `Reads lines start_line to end_line (1-based, inclusive) of a text file, exactly as they are (up to ${TOOL_LIMITS.readMaxLines} lines / ${TOOL_LIMITS.readMaxBytes / 1024} KB per call). A first line in [brackets] says when fewer lines were returned than asked for, and why.`,
  parameters: ReadLineRangeParams,
  describe: (p) => `Read lines ${p.start_line}-${p.end_line} of ${p.file_path}`,
  async execute(params, context) {
    const file = await loadTextFile(context, params.file_path);
    if (isToolError(file)) return file;
    const shown = file.path.relativePath;
    const { lines } = splitLines(file.text);
    if (params.start_line > lines.length) {
      return toolFailure(
        'LINE_OUT_OF_RANGE',
        `start_line ${params.start_line} is past the end of ${shown}, which has ${plural(lines.length, 'line')}.`,
      );
    }
    const window = renderLineWindow({
      lines,
      start: params.start_line - 1,
      count: params.end_line - params.start_line + 1,
      lineNumbers: params.line_numbers ?? false,
    });
    const lastWanted = Math.min(params.end_line, lines.length);
    const notes: string[] = [];
    if (params.end_line > lines.length)
      notes.push(`${shown} has only ${plural(lines.length, 'line')}`);
    if (window.end < lastWanted) {
      notes.push(
        `showing lines ${params.start_line}-${window.end}${capReason(window)}; to read more, call read_line_range with start_line=${window.end + 1}`,
      );
    }
    const header = notes.length === 0 ? '' : `[${notes.join('; ')}.]\n`;
    return toolSuccess(
      `${header}${window.text}`,
      `Read lines ${params.start_line}-${window.end} of ${shown}`,
    );
  },
});
