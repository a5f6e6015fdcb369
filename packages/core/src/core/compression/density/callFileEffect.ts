/**
 * What a tool call did to files, as far as READ→WRITE pruning may rely on it: the files whose
 * content its result shows and the files it changes, and whether a response reports failure.
 * Unknown or ambiguous calls have no effect.
 */
import * as path from 'node:path';
import { isDeleteTool, isReadTool, isWriteTool } from '../densityVocabulary.js';
import type { ToolCallBlock, ToolResponseBlock } from '../../../services/history/IContent.js';
import { classifyShellCommand } from '../../../shell/classifyShellCommand.js';
import { concreteReadManyPaths, extractFilePath, stringParameter } from './toolParameters.js';
import { isShellTool, resultText, shellExitCode } from './toolResultText.js';
import { isCompactSummary } from './compress/toolResponseSummary.js';

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

/**
 * Effects by call block, one cache per shellFileOps value. Blocks are immutable, so an effect is
 * computed once per call however many pre-send steps see it (shell classification is not cheap).
 */
const EFFECTS = {
  shell: new WeakMap<ToolCallBlock, FileEffect | null>(),
  plain: new WeakMap<ToolCallBlock, FileEffect | null>(),
};

/** The call's file effect, or `undefined` when it has none that density can rely on. */
export function fileEffectOf(
  call: ToolCallBlock,
  options: FileEffectOptions = {},
): FileEffect | undefined {
  const cache = options.shellFileOps === true ? EFFECTS.shell : EFFECTS.plain;
  const known = cache.get(call);
  if (known !== undefined) return known ?? undefined;
  const effect = computeFileEffect(call, options);
  cache.set(call, effect ?? null);
  return effect;
}

/**
 * A call that neither reads nor changes a file as density sees it (shell calls classified too):
 * a search, a listing, a script or test run. READ→WRITE never prunes its result.
 */
export function touchesNoFile(call: ToolCallBlock): boolean {
  if (isReadTool(call.name) || isWriteTool(call.name) || isDeleteTool(call.name)) return false;
  const effect = fileEffectOf(call, { shellFileOps: true });
  return effect === undefined || (effect.reads.length === 0 && effect.writes.length === 0);
}

function computeFileEffect(
  call: ToolCallBlock,
  options: FileEffectOptions,
): FileEffect | undefined {
  if (isReadTool(call.name)) {
    const paths =
      call.name === 'read_many_files'
        ? concreteReadManyPaths(call.parameters)
        : optionalList(extractFilePath(call.parameters));
    return paths === undefined ? undefined : { reads: paths, writes: [] };
  }
  if (isWriteTool(call.name) || isDeleteTool(call.name)) {
    const target = extractFilePath(call.parameters);
    return target === undefined ? undefined : { reads: [], writes: [target] };
  }
  if (options.shellFileOps === true && isShellTool(call.name)) return shellEffect(call.parameters);
  return undefined;
}

/** Keys under which a shell tool takes the directory its command runs in. */
const DIRECTORY_KEYS = ['directory', 'dir_path', 'cwd'] as const;

/** A shell call's effect; relative paths are taken relative to the call's directory, if any. */
function shellEffect(parameters: unknown): FileEffect | undefined {
  const command = stringParameter(parameters, 'command');
  const access = command === undefined ? undefined : classifyShellCommand(command);
  if (access === undefined) return undefined;
  // A shell read counts only when the result is nothing but the files' content: dropping a
  // result that also holds other output (a test run, a listing) would lose live content.
  const effect: FileEffect = {
    reads: access.outputIsReads ? access.reads : [],
    writes: access.writes,
  };
  if (effect.reads.length === 0 && effect.writes.length === 0) return undefined;
  const directory = DIRECTORY_KEYS.map((key) => stringParameter(parameters, key)).find(
    (value) => value !== undefined,
  );
  if (directory === undefined) return effect;
  const inDirectory = (p: string) => (path.isAbsolute(p) ? p : path.join(directory, p));
  return { reads: effect.reads.map(inDirectory), writes: effect.writes.map(inDirectory) };
}

function optionalList(value: string | undefined): readonly string[] | undefined {
  return value === undefined ? undefined : [value];
}

/**
 * Whether a response says its call did not (certainly) succeed: it carries an error, is marked
 * incomplete, or is a shell run reporting a non-zero exit code — or whose output was already
 * replaced by a one-liner (the pruned pointer, a summary), so its exit code can no longer be read.
 */
export function responseFailed(response: ToolResponseBlock): boolean {
  if (response.error !== undefined || response.isComplete === false) return true;
  if (!isShellTool(response.toolName)) return false;
  let failed = SHELL_FAILED.get(response);
  if (failed === undefined) {
    const code = isCompactSummary(response.result) ? 1 : shellExitCode(resultText(response.result));
    failed = code !== undefined && code !== 0;
    SHELL_FAILED.set(response, failed);
  }
  return failed;
}

/** Shell verdicts by response block: reading the exit code scans the whole output once. */
const SHELL_FAILED = new WeakMap<ToolResponseBlock, boolean>();
