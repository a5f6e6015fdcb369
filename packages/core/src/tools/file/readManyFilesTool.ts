/**
 * `read_many_files`: several files (paths, directories or globs) in one result, each between its own
 * `--- <path> --- [tag]` / `--- End of content --- [tag]` markers (the shared inclusion format,
 * `fileInclusionFormat.ts`), within one output budget.
 */
import { z } from 'zod';
import { formatFileInclusions } from '../../core/compression/densityVocabulary.js';
import { defineTool } from '../defineTool.js';
import { toolFailure, toolSuccess, type ToolContext } from '../Tool.js';
import { TOOL_LIMITS } from '../toolLimits.js';
import { splitLines } from '../workspace/textLines.js';
import { isToolError, readCheckedText } from '../workspace/toolPaths.js';
import { walkLimitNotice } from '../workspace/walkNotice.js';
import { abortedResult } from '../workspace/writeTextFile.js';
import { collectRequestedFiles, type RequestedFile } from './collectRequestedFiles.js';

const ReadManyFilesParams = z.object({
  paths: z
    .array(z.string().min(1))
    .min(1)
    .describe(
      'Files, directories (every file below) or glob patterns, relative to the workspace root, e.g. ["README.md", "src/**/*.ts"].',
    ),
});

interface Included {
  readonly path: string;
  readonly content: string;
}

interface Assembly {
  readonly included: Included[];
  readonly notes: string[];
  bytes: number;
}

/**
 * Adds one file within the remaining budget: 'next' when there is room for more, 'full' when the
 * budget is spent after (part of) this file, 'no-room' when not even its first line fit.
 */
async function include(
  context: ToolContext,
  assembly: Assembly,
  file: RequestedFile,
): Promise<'next' | 'full' | 'no-room'> {
  const read = await readCheckedText(context, file.realPath, file.relativePath);
  if (isToolError(read)) {
    assembly.notes.push(`[Skipped ${file.relativePath}: ${read.code} — ${read.message}]`);
    return 'next';
  }
  const remaining = TOOL_LIMITS.readMaxBytes - assembly.bytes;
  const size = Buffer.byteLength(read.text, 'utf8');
  if (size <= remaining) {
    assembly.included.push({ path: file.relativePath, content: read.text });
    assembly.bytes += size;
    return 'next';
  }
  const { lines } = splitLines(read.text);
  const kept: string[] = [];
  let used = 0;
  for (const line of lines) {
    const cost = Buffer.byteLength(line, 'utf8') + 1;
    if (used + cost > remaining) break;
    kept.push(line);
    used += cost;
  }
  if (kept.length === 0) return 'no-room';
  assembly.included.push({ path: file.relativePath, content: `${kept.join('\n')}\n` });
  assembly.bytes += used;
  assembly.notes.push(
    `[${file.relativePath} was cut to lines 1-${kept.length} of ${lines.length} by the ${TOOL_LIMITS.readMaxBytes / 1024} KB output cap; read the rest with read_file offset=${kept.length}.]`,
  );
  return 'full';
}

export const readManyFilesTool = defineTool({
  name: 'read_many_files',
  kind: 'read',
  description: `Reads several text files at once. Each file appears between its own "--- <path> --- [tag]" and "--- End of content --- [tag]" lines. Accepts files, directories and glob patterns; node_modules and .git are skipped unless named. At most ${TOOL_LIMITS.readManyMaxFiles} files and ${TOOL_LIMITS.readMaxBytes / 1024} KB per call; notes after the files say what was cut or skipped.`,
  parameters: ReadManyFilesParams,
  describe: (p) => `Read ${p.paths.join(', ')}`,
  async execute(params, context) {
    const requested = await collectRequestedFiles(context, params.paths);
    if (isToolError(requested)) return requested;
    if (requested.walkEnds.includes('aborted')) return abortedResult();
    const assembly: Assembly = { included: [], notes: [], bytes: 0 };
    let index = 0;
    while (index < requested.files.length) {
      const outcome = await include(context, assembly, requested.files[index] as RequestedFile);
      if (outcome !== 'no-room') index++;
      if (outcome !== 'next') break;
    }
    const left = requested.files.slice(index).map((file) => file.relativePath);
    if (left.length > 0) {
      assembly.notes.push(
        `[Not included (output cap reached): ${left.join(', ')}. Read them with read_file or another read_many_files call.]`,
      );
    }
    if (requested.truncated) {
      assembly.notes.push(
        `[More than ${TOOL_LIMITS.readManyMaxFiles} files matched; only the first ${TOOL_LIMITS.readManyMaxFiles} were considered. Use narrower patterns.]`,
      );
    }
    if (requested.unmatched.length > 0) {
      assembly.notes.push(`[No files found for: ${requested.unmatched.join(', ')}.]`);
    }
    const walkLimit = requested.walkEnds.map(walkLimitNotice).find((note) => note !== undefined);
    if (walkLimit !== undefined) assembly.notes.push(walkLimit);
    if (assembly.included.length === 0) {
      return toolFailure(
        'NO_FILES_MATCHED',
        `No readable text files found. ${assembly.notes.join(' ')}`.trim(),
      );
    }
    const body = formatFileInclusions(assembly.included);
    const output = assembly.notes.length === 0 ? body : `${body}\n${assembly.notes.join('\n')}`;
    return toolSuccess(output, `Read ${assembly.included.length} files`);
  },
});
