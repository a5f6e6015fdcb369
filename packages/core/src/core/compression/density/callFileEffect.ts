/**
 * What a tool call did to files, as far as READ→WRITE pruning may rely on it: the files whose
 * content its result shows and the files it changes, and whether a response reports failure.
 * Unknown or ambiguous calls have no effect.
 */
import { isReadTool, isWriteTool } from '../densityVocabulary.js';
import type { ToolCallBlock, ToolResponseBlock } from '../../../services/history/IContent.js';
import { classifyShellCommand } from './shellFileOps.js';
import { concreteReadManyPaths, extractFilePath, stringParameter } from './toolParameters.js';
import { isShellTool, resultText, shellExitCode } from './toolResultText.js';

export interface FileEffect {
  /** Files whose content the result shows. */
  readonly reads: readonly string[];
  /** Files the call changes when it succeeds. */
  readonly writes: readonly string[];
}

export interface FileEffectOptions {
  /** Also classify `run_shell_command` calls (`cat f`, `sed -i … f`, …). Default: off. */
  readonly shellFileOps?: boolean;
}

/** The call's file effect, or `undefined` when it has none that density can rely on. */
export function fileEffectOf(
  call: ToolCallBlock,
  options: FileEffectOptions = {},
): FileEffect | undefined {
  if (isReadTool(call.name)) {
    const paths =
      call.name === 'read_many_files'
        ? concreteReadManyPaths(call.parameters)
        : optionalList(extractFilePath(call.parameters));
    return paths === undefined ? undefined : { reads: paths, writes: [] };
  }
  if (isWriteTool(call.name)) {
    const target = extractFilePath(call.parameters);
    return target === undefined ? undefined : { reads: [], writes: [target] };
  }
  if (options.shellFileOps === true && isShellTool(call.name)) {
    const command = stringParameter(call.parameters, 'command');
    return command === undefined ? undefined : classifyShellCommand(command);
  }
  return undefined;
}

function optionalList(value: string | undefined): readonly string[] | undefined {
  return value === undefined ? undefined : [value];
}

/**
 * Whether a response says its call did not (certainly) succeed: it carries an error, is marked
 * incomplete, or is a shell run reporting a non-zero exit code.
 */
export function responseFailed(response: ToolResponseBlock): boolean {
  if (response.error !== undefined || response.isComplete === false) return true;
  if (!isShellTool(response.toolName)) return false;
  const code = shellExitCode(resultText(response.result));
  return code !== undefined && code !== 0;
}
