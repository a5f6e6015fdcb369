/** `write_file`: creates or overwrites a file with the given content (parents are created). */
import { z } from 'zod';
import { errnoCode } from '../ports/FileSystem.js';
import { defineTool } from '../defineTool.js';
import { toolSuccess } from '../Tool.js';
import { fsErrorResult, isToolError, resolveToolPath } from '../workspace/toolPaths.js';
import { lineCount, writeTextFile } from '../workspace/writeTextFile.js';
import { plural } from '../workspace/plural.js';

const WriteFileParams = z.object({
  file_path: z
    .string()
    .min(1)
    .describe('Path of the file, relative to the workspace root (or absolute inside it).'),
  content: z.string().describe('The complete new content of the file.'),
});

export const writeFileTool = defineTool({
  name: 'write_file',
  kind: 'write',
  writesPaths: (p) => [p.file_path],
  description:
    'Writes a file in the workspace, replacing all of its content (or creating it and any missing parent directories). For small changes to an existing file prefer replace.',
  parameters: WriteFileParams,
  describe: (p) => `Write ${plural(lineCount(p.content), 'line')} to ${p.file_path}`,
  async execute(params, context) {
    const target = await resolveToolPath(context, params.file_path);
    if (isToolError(target)) return target;
    let existed = true;
    try {
      const stat = await context.fs.stat(target.realPath);
      if (stat.kind === 'directory') return fsErrorResult({ code: 'EISDIR' }, target.relativePath);
    } catch (error) {
      if (errnoCode(error) !== 'ENOENT') return fsErrorResult(error, target.relativePath);
      existed = false;
    }
    const failed = await writeTextFile(context, target, params.content);
    if (failed) return failed;
    const lines = lineCount(params.content);
    const verb = existed ? 'Overwrote' : 'Created';
    return toolSuccess(
      `${verb} ${target.relativePath} (${plural(lines, 'line')}).`,
      `${verb} ${target.relativePath}`,
    );
  },
});
