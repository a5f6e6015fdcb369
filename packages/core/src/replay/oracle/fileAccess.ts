/**
 * What a recorded tool call does to files, as the replay oracle and the peer baselines see it: the
 * files its result shows and the files it changes. This is the one place replay decides it —
 * dedicated read/write tools through density's `fileEffectOf`, `delete_file` as a write, and
 * shell commands through the transcripts' `classifyShellCommand` — so switching to the unified
 * shell classifier is a change here only.
 */
import path from 'node:path';
import type { ToolCallBlock, ToolResponseBlock } from '../../services/history/IContent.js';
import { fileEffectOf } from '../../core/compression/density/callFileEffect.js';
import {
  extractFilePath,
  parameterRecord,
  stringParameter,
} from '../../core/compression/density/toolParameters.js';
import {
  isShellTool,
  resultText,
  shellExitCode,
} from '../../core/compression/density/toolResultText.js';
import { classifyShellCommand } from '../../shell/classifyShellCommand.js';
import { DELETE_FILE_TOOL } from '../../transcripts/toolAliases.js';
import { isWindowsPath } from './pathKey.js';

export interface FileAccess {
  /** `tool`: a dedicated read/write tool; `shell`: a shell command the classifier understood. */
  readonly via: 'tool' | 'shell';
  /** Files whose content the result shows (as written; relative to `directory` when given). */
  readonly reads: readonly string[];
  /** Files the call changes when it succeeds. */
  readonly writes: readonly string[];
  /** The result shows only part of the file: a line range, a window, `head`/`tail`/`sed -n`. */
  readonly partial: boolean;
}

export interface FileAccessOptions {
  /** Also classify `run_shell_command` calls. */
  readonly shell: boolean;
}

const RANGE_KEYS = ['offset', 'limit', 'start_line', 'end_line', 'line', 'view_range'] as const;
const DIRECTORY_KEYS = ['cwd', 'directory', 'dir_path'] as const;
const PARTIAL_VIEWER = /(?:^|[\s|;&(])(?:head|tail|sed)\s/;

/** The call's file access, or `undefined` when it has none the oracle can rely on. */
export function fileAccessOf(
  call: ToolCallBlock,
  options: FileAccessOptions,
): FileAccess | undefined {
  if (call.name === DELETE_FILE_TOOL) {
    const target = extractFilePath(call.parameters);
    return target === undefined
      ? undefined
      : { via: 'tool', reads: [], writes: [target], partial: false };
  }
  if (isShellTool(call.name)) return options.shell ? shellAccess(call.parameters) : undefined;
  const effect = fileEffectOf(call);
  if (effect === undefined) return undefined;
  const record = parameterRecord(call.parameters) ?? {};
  const partial =
    call.name === 'read_line_range' || RANGE_KEYS.some((key) => record[key] !== undefined);
  return { via: 'tool', reads: effect.reads, writes: effect.writes, partial };
}

function shellAccess(parameters: unknown): FileAccess | undefined {
  const command = stringParameter(parameters, 'command');
  const access = command === undefined ? undefined : classifyShellCommand(command);
  if (access === undefined || (access.reads.length === 0 && access.writes.length === 0)) {
    return undefined;
  }
  const directory = DIRECTORY_KEYS.map((key) => stringParameter(parameters, key)).find(
    (value) => value !== undefined,
  );
  const inDirectory = (p: string) =>
    directory === undefined || path.isAbsolute(p) || isWindowsPath(p) ? p : path.join(directory, p);
  return {
    via: 'shell',
    reads: access.reads.map(inDirectory),
    writes: access.writes.map(inDirectory),
    partial: PARTIAL_VIEWER.test(command ?? ''),
  };
}

/**
 * Whether the call did what it asked: no error, not marked incomplete, and for shell commands no
 * non-zero exit code in the output. A failed write changes nothing; a failed read shows nothing.
 */
export function responseSucceeded(response: ToolResponseBlock): boolean {
  if (response.error !== undefined || response.isComplete === false) return false;
  if (!isShellTool(response.toolName)) return true;
  const code = shellExitCode(resultText(response.result));
  return code === undefined || code === 0;
}
