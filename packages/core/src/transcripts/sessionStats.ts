/** Counts that describe an imported session: entries, tool traffic, reads, writes and failures. */
import {
  findFileInclusions,
  isReadTool,
  isWriteTool,
} from '../core/compression/densityVocabulary.js';
import type { IContent, ToolCallBlock } from '../services/history/IContent.js';
import { pairToolCallsByPosition } from '../services/history/toolCallPairing.js';
import { classifyShellCommand } from '../shell/classifyShellCommand.js';
import { DELETE_FILE_TOOL, isParams } from './toolAliases.js';
import type { SessionStats } from './types.js';

function isWrite(name: string): boolean {
  return isWriteTool(name) || name === DELETE_FILE_TOOL;
}

function shellAccess(call: ToolCallBlock): { reads: boolean; writes: boolean } {
  if (call.name !== 'run_shell_command' || !isParams(call.parameters))
    return { reads: false, writes: false };
  const command = call.parameters.command;
  const access = typeof command === 'string' ? classifyShellCommand(command) : undefined;
  return { reads: (access?.reads.length ?? 0) > 0, writes: (access?.writes.length ?? 0) > 0 };
}

/** Calls and responses are paired by position (`pairToolCallsByPosition`): ids may repeat. */
export function computeSessionStats(contents: readonly IContent[]): SessionStats {
  const pairing = pairToolCallsByPosition(contents);
  const calls: ToolCallBlock[] = pairing.calls.map((site) => site.block);
  const answered = new Set(pairing.calls.filter((s) => s.responses.length > 0).map((s) => s.block));
  const failed = new Set(
    pairing.responses
      .filter((r) => r.block.error !== undefined)
      .map((r) => r.call?.block ?? r.block),
  );
  const toolResponses = pairing.responses.length;
  let inclusions = 0;
  for (const entry of contents) {
    if (entry.speaker !== 'human') continue;
    for (const block of entry.blocks) {
      if (block.type === 'text') inclusions += findFileInclusions(block.text).length;
    }
  }
  const writes = calls.filter((call) => isWrite(call.name));
  const shell = calls.map(shellAccess);
  return {
    entries: contents.length,
    humanEntries: contents.filter((entry) => entry.speaker === 'human').length,
    aiEntries: contents.filter((entry) => entry.speaker === 'ai').length,
    toolEntries: contents.filter((entry) => entry.speaker === 'tool').length,
    toolCalls: calls.length,
    toolResponses,
    failedToolResponses: failed.size,
    reads: calls.filter((call) => isReadTool(call.name)).length,
    writes: writes.length,
    failedWrites: writes.filter((call) => failed.has(call)).length,
    shellReads: shell.filter((access) => access.reads).length,
    shellWrites: shell.filter((access) => access.writes).length,
    inclusions,
    unansweredCalls: calls.filter((call) => !answered.has(call)).length,
  };
}
