/** `insert_at_line`: inserts whole lines so that the new content starts at the given line. */
import { z } from 'zod';
import { defineTool } from '../defineTool.js';
import { toolFailure, toolSuccess } from '../Tool.js';
import { contentToLines, joinLines, splitLines } from '../workspace/textLines.js';
import { isToolError, loadTextFile } from '../workspace/toolPaths.js';
import { writeTextFile } from '../workspace/writeTextFile.js';
import { plural } from '../workspace/plural.js';

const InsertAtLineParams = z.object({
  file_path: z
    .string()
    .min(1)
    .describe('Path of an existing file, relative to the workspace root (or absolute inside it).'),
  line: z
    .number()
    .int()
    .min(1)
    .describe(
      '1-based line number the inserted content will start at; existing lines from there move down. Use (number of lines + 1) to append.',
    ),
  content: z
    .string()
    .describe('The lines to insert; a final newline is optional and adds no extra line.'),
});

export const insertAtLineTool = defineTool({
  name: 'insert_at_line',
  kind: 'write',
  writesPaths: (p) => [p.file_path],
  description:
    'Inserts lines into an existing text file before the given 1-based line (line = number of lines + 1 appends). The file keeps its line endings.',
  parameters: InsertAtLineParams,
  describe: (p) => `Insert lines at line ${p.line} of ${p.file_path}`,
  async execute(params, context) {
    const file = await loadTextFile(context, params.file_path);
    if (isToolError(file)) return file;
    const shown = file.path.relativePath;
    const text = splitLines(file.text);
    const total = text.lines.length;
    if (params.line > total + 1) {
      return toolFailure(
        'LINE_OUT_OF_RANGE',
        `line ${params.line} is past the end of ${shown}, which has ${plural(total, 'line')}. Use a line from 1 to ${total + 1} (${total + 1} appends).`,
      );
    }
    const inserted = contentToLines(params.content, text.eol);
    const lines = [...text.lines];
    lines.splice(params.line - 1, 0, ...inserted);
    const appendsToUnterminated = params.line === total + 1 && total > 0 && !text.trailingNewline;
    const trailingNewline = total === 0 || appendsToUnterminated ? true : text.trailingNewline;
    const failed = await writeTextFile(
      context,
      file.path,
      joinLines({ ...text, lines, trailingNewline }),
    );
    if (failed) return failed;
    const last = params.line + inserted.length - 1;
    return toolSuccess(
      `Inserted ${plural(inserted.length, 'line')} into ${shown} (now lines ${params.line}-${last}); the file now has ${plural(lines.length, 'line')}.`,
      `Edited ${shown}`,
    );
  },
});
