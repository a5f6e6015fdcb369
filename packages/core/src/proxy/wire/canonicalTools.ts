/**
 * Client tool calls in the proxy's request, as the density passes know them: Claude Code, Codex
 * and Qwen Code names go through the transcript alias table (the first of those clients whose
 * table names the tool reads it); a Codex `apply_patch` becomes one write per file it
 * touches; the shell commands and patches inside a Codex `exec` script are read as those same
 * calls when the script is understood; anything else keeps its name (generic function tools and
 * scripts not understood never read or write files, so density never prunes by them).
 */
import path from 'node:path';
import type { ContentBlock } from '../../services/history/IContent.js';
import { toolCallBlock } from '../../services/history/IContent.js';
import {
  DELETE_FILE_TOOL,
  hasToolAlias,
  mapToolCall,
  type SourceAgent,
} from '../../transcripts/toolAliases.js';
import { extractPatch, parseApplyPatch } from '../../transcripts/applyPatch.js';
import { shellCommandString } from '../../transcripts/importers/codexRollout.js';
import { parseExecCode, type ExecCodeParse } from '../../transcripts/parseExecCode.js';
import { fileEffectOf } from '../../core/compression/density/callFileEffect.js';

/**
 * The write per file of a patch; `dir` (a `cd` before the patch) is where its relative paths
 * start.
 */
function patchCalls(id: string, patchText: string, dir?: string): ContentBlock[] {
  const patch = extractPatch(patchText);
  if (patch === undefined) return [];
  const at = (file: string) =>
    dir === undefined || path.posix.isAbsolute(file) ? file : path.posix.join(dir, file);
  return parseApplyPatch(patch).map((file, index) => {
    const callId = index === 0 ? id : `${id}#${index}`;
    switch (file.kind) {
      case 'add':
        return toolCallBlock(callId, 'write_file', {
          file_path: at(file.path),
          content: file.content,
        });
      case 'update':
        return toolCallBlock(callId, 'write_file', { file_path: at(file.moveTo ?? file.path) });
      case 'delete':
        return toolCallBlock(callId, DELETE_FILE_TOOL, { file_path: at(file.path) });
    }
  });
}

/**
 * The shell forms Codex intercepts as a patch (its own shell parser's): `apply_patch` (or
 * `applypatch`) with the patch as a heredoc or argument, optionally after `cd <dir> &&`.
 */
const SHELL_PATCH = /^\s*(?:cd\s+("[^"]*"|'[^']*'|[^\s&;|]+)\s*&&\s*)?(?:apply_patch|applypatch)\b/;

/** The patch calls of a shell command that is a patch; undefined when it is none. */
function shellPatchCalls(id: string, command: string): ContentBlock[] | undefined {
  const match = SHELL_PATCH.exec(command);
  if (match === null) return undefined;
  const dir = match[1]?.replace(/^(["'])(.*)\1$/, '$2');
  const calls = patchCalls(id, command, dir);
  return calls.length > 0 ? calls : undefined;
}

/** The clients whose tables read a proxied call, in order (their tool names do not overlap). */
const PROXY_CLIENTS: readonly SourceAgent[] = ['claude-code', 'codex', 'qwen-code'];

const SHELL_NAMES = new Set(['shell', 'shell_command', 'exec_command', 'local_shell']);

/** Codex shell calls carry argv (`["bash", "-lc", X]`): the classifier wants one string. */
function shellParameters(parameters: unknown): unknown {
  if (typeof parameters !== 'object' || parameters === null || Array.isArray(parameters)) {
    return parameters;
  }
  const params = parameters as Readonly<Record<string, unknown>>;
  const command = shellCommandString(params.command ?? params.cmd);
  return command === undefined ? params : { ...params, command };
}

/** The canonical call block(s) for one client call (several for a multi-file patch). */
export function canonicalCalls(id: string, name: string, rawParameters: unknown): ContentBlock[] {
  const parameters = SHELL_NAMES.has(name) ? shellParameters(rawParameters) : rawParameters;
  const shellPatch =
    SHELL_NAMES.has(name) && typeof parameters === 'object' && parameters !== null
      ? (parameters as { command?: unknown }).command
      : undefined;
  const shellCalls = typeof shellPatch === 'string' ? shellPatchCalls(id, shellPatch) : undefined;
  if (shellCalls !== undefined) return shellCalls;
  if (name === 'apply_patch') {
    const input =
      typeof parameters === 'string'
        ? parameters
        : typeof parameters === 'object' && parameters !== null && 'input' in parameters
          ? String(parameters.input)
          : '';
    const calls = patchCalls(id, input);
    if (calls.length > 0) return calls;
  }
  const client = PROXY_CLIENTS.find((agent) => hasToolAlias(agent, name));
  const mapped =
    client === undefined ? { name, parameters } : mapToolCall(client, name, parameters);
  return [toolCallBlock(id, mapped.name, mapped.parameters)];
}

export interface CanonicalRef {
  readonly id: string;
  readonly name: string;
}

/** The calls `canonicalCalls` made for one client call (a response answers each of them). */
export function canonicalIds(blocks: readonly ContentBlock[]): CanonicalRef[] {
  return blocks.flatMap((block) =>
    block.type === 'tool_call' ? [{ id: block.id, name: block.name }] : [],
  );
}

/** How to judge the output of an understood `exec` call (see `execCallFailed`). */
export interface ExecCallFacts {
  readonly parse: Extract<ExecCodeParse, { kind: 'calls' }>;
  /** A shell command in it changes files: only a shown exit code 0 proves it succeeded. */
  readonly needsExitCode: boolean;
  /**
   * Every shell command in it that changes files is an `apply_patch`, whose success Codex shows
   * in its own forms (`shellPatchOutcome`) rather than as an `exit_code` member.
   */
  readonly shellPatchesOnly: boolean;
}

/**
 * The canonical calls of one Codex `exec` script: its nested shell command or patches, or (a
 * script not understood) one `exec` call that touches no file. `facts` is absent for the latter.
 */
export function canonicalExecCalls(
  id: string,
  code: string,
): { readonly blocks: ContentBlock[]; readonly facts?: ExecCallFacts } {
  const parse = parseExecCode(code);
  if (parse.kind === 'opaque') return { blocks: canonicalCalls(id, 'exec', code) };
  let needsExitCode = false;
  let shellPatchesOnly = true;
  const blocks = parse.calls.flatMap((nested, index) => {
    const callId = index === 0 ? id : `${id}#call${index}`;
    if (nested.tool === 'apply_patch') return canonicalCalls(callId, 'apply_patch', nested.patch);
    const calls = canonicalCalls(callId, 'exec_command', nested.parameters);
    const writes = calls.some(
      (block) =>
        block.type === 'tool_call' &&
        (fileEffectOf(block, { shellFileOps: true })?.writes.length ?? 0) > 0,
    );
    needsExitCode ||= writes;
    const command = shellParameters(nested.parameters);
    const commandText =
      typeof command === 'object' && command !== null
        ? (command as { command?: unknown }).command
        : undefined;
    if (writes && !(typeof commandText === 'string' && SHELL_PATCH.test(commandText)))
      shellPatchesOnly = false;
    return calls;
  });
  return { blocks, facts: { parse, needsExitCode, shellPatchesOnly } };
}
