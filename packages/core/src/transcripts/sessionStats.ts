/** Counts that describe an imported session: entries, tool traffic, reads, writes and failures. */
import {
  findFileInclusions,
  isReadTool,
  isWriteTool,
} from '../core/compression/densityVocabulary.js';
import type { IContent, ToolCallBlock } from '../services/history/IContent.js';
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

export function computeSessionStats(contents: readonly IContent[]): SessionStats {
  const failed = new Set<string>();
  const answered = new Set<string>();
  const calls: ToolCallBlock[] = [];
  let toolResponses = 0;
  let inclusions = 0;
  for (const entry of contents) {
    for (const block of entry.blocks) {
      if (block.type === 'tool_call') calls.push(block);
      else if (block.type === 'tool_response') {
        toolResponses += 1;
        answered.add(block.callId);
        if (block.error !== undefined) failed.add(block.callId);
      } else if (block.type === 'text' && entry.speaker === 'human') {
        inclusions += findFileInclusions(block.text).length;
      }
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
    failedWrites: writes.filter((call) => failed.has(call.id)).length,
    shellReads: shell.filter((access) => access.reads).length,
    shellWrites: shell.filter((access) => access.writes).length,
    inclusions,
    unansweredCalls: calls.filter((call) => !answered.has(call.id)).length,
  };
}
