/**
 * What a tool call did to files, as far as READ→WRITE pruning may rely on it: the files it read in
 * full view of the model and the files it changed, and whether it succeeded. Unknown or ambiguous
 * calls have no effect.
 */
import { isReadTool, isWriteTool } from '../densityVocabulary.js';
import type { ToolCallBlock } from '../../../services/history/IContent.js';
import { classifyShellCommand } from './shellFileOps.js';
import { concreteReadManyPaths, extractFilePath, stringParameter } from './toolParameters.js';
import type { CallSite } from './toolCallIndex.js';
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
 * Whether the call certainly ran to a good end: it has a response, and no response carries an
 * error, is marked incomplete, or (for a shell tool) reports a non-zero exit code.
 */
export function callSucceeded(call: CallSite): boolean {
  if (call.responses.length === 0) return false;
  return call.responses.every(({ block }) => {
    if (block.error !== undefined || block.isComplete === false) return false;
    if (!isShellTool(block.toolName)) return true;
    const code = shellExitCode(resultText(block.result));
    return code === undefined || code === 0;
  });
}
