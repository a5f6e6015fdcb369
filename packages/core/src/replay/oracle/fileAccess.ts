/**
 * What a recorded tool call does to files, as the replay oracle (and the Cline dedup baseline)
 * sees it: the files its result shows and the files it changes. Read and write tools by their
 * canonical names and the file they name; shell commands through the oracle's own reading
 * (`oracleShellEffect`). Independent of the strategies' classifiers, so that a classification bug
 * there shows up as a disagreement (see `crossCheckOracle`) instead of grading itself.
 */
import path from 'node:path';
import type { ToolCallBlock, ToolResponseBlock } from '../../services/history/IContent.js';
import {
  callSucceeded,
  namedFile,
  ORACLE_READ_TOOLS,
  ORACLE_SHELL_TOOLS,
  ORACLE_WRITE_TOOLS,
  requestedFiles,
  shellCommand,
  shellDirectory,
  showsWindow,
} from './oracleFacts.js';
import { oracleShellEffect } from './oracleShell.js';
import { isWindowsPath } from './pathKey.js';

export interface FileAccess {
  /** `tool`: a dedicated read/write tool; `shell`: a shell command the oracle understood. */
  readonly via: 'tool' | 'shell';
  /** Files whose content the result shows (as written; joined to the call's directory). */
  readonly reads: readonly string[];
  /** Files the call changes when it succeeds. */
  readonly writes: readonly string[];
  /** The result shows only part of the file: a line range, a window, `head`/`tail`/`sed -n`. */
  readonly partial: boolean;
}

export interface FileAccessOptions {
  /** Also classify shell calls. */
  readonly shell: boolean;
}

/** The call's file access, or `undefined` when it has none the oracle can rely on. */
export function fileAccessOf(
  call: ToolCallBlock,
  options: FileAccessOptions,
): FileAccess | undefined {
  if (ORACLE_SHELL_TOOLS.has(call.name)) return options.shell ? shellAccess(call) : undefined;
  if (ORACLE_WRITE_TOOLS.has(call.name)) {
    const target = namedFile(call);
    return target === undefined
      ? undefined
      : { via: 'tool', reads: [], writes: [target], partial: false };
  }
  if (!ORACLE_READ_TOOLS.has(call.name)) return undefined;
  const reads = call.name === 'read_many_files' ? requestedFiles(call) : listOf(namedFile(call));
  if (reads === undefined) return undefined;
  return { via: 'tool', reads, writes: [], partial: showsWindow(call, '') };
}

function listOf(value: string | undefined): readonly string[] | undefined {
  return value === undefined ? undefined : [value];
}

function shellAccess(call: ToolCallBlock): FileAccess | undefined {
  const command = shellCommand(call);
  const effect = command === undefined ? undefined : oracleShellEffect(command);
  if (effect === undefined) return undefined;
  const directory = shellDirectory(call);
  const inDirectory = (p: string) =>
    directory === undefined || path.posix.isAbsolute(p) || isWindowsPath(p)
      ? p
      : path.posix.join(directory, p);
  return {
    via: 'shell',
    reads: effect.shows.map(inDirectory),
    writes: effect.changes.map(inDirectory),
    partial: effect.partial,
  };
}

/**
 * Whether the call did what it asked: no error, not marked incomplete, and for shell commands no
 * non-zero exit code in the output. A failed write changes nothing; a failed read shows nothing.
 */
export function responseSucceeded(response: ToolResponseBlock): boolean {
  return callSucceeded(response);
}
