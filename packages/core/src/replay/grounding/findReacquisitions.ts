/**
 * Tool calls of a recording that fetch again what an earlier call already fetched: the same file
 * read again with no successful write to it in between, or the same shell command run again with
 * the same output. Each re-acquisition names the earlier calls whose content it repeats. Reads and
 * writes are recognised by the replay oracle's own rules (`fileAccessOf`). Pure.
 */
import type { IContent, ToolCallBlock } from '../../services/history/IContent.js';
import { fileAccessOf, responseSucceeded } from '../oracle/fileAccess.js';
import { ORACLE_SHELL_TOOLS, shellCommand } from '../oracle/oracleFacts.js';
import { recordingPosition } from '../oracle/exposureLedger.js';
import { blockText } from './groundingText.js';

/** An earlier call whose content a later call fetched again. */
export interface Acquisition {
  readonly callId: string;
  /** Recording position of its response. */
  readonly position: number;
  /** Its response as the model saw it. */
  readonly text: string;
}

export interface Reacquisition {
  readonly callId: string;
  /** Recording position of the reply that made the call. */
  readonly replyPosition: number;
  /** The earlier calls with the same content, oldest first (never empty). */
  readonly earlier: readonly Acquisition[];
}

interface Pending {
  readonly call: ToolCallBlock;
  readonly replyPosition: number;
}

/** What a call fetched, as a key two calls share when they fetch the same content. */
function acquisitionKey(
  call: ToolCallBlock,
): { key: string; files: readonly string[] } | undefined {
  if (ORACLE_SHELL_TOOLS.has(call.name)) {
    const command = shellCommand(call);
    const access = fileAccessOf(call, { shell: true });
    return command === undefined
      ? undefined
      : { key: `shell\u0000${command}`, files: access?.reads ?? [] };
  }
  const access = fileAccessOf(call, { shell: false });
  if (access === undefined || access.reads.length === 0) return undefined;
  const window = access.partial ? JSON.stringify(call.parameters) : '';
  return {
    key: `read\u0000${[...access.reads].sort().join('\u0000')}\u0000${window}`,
    files: access.reads,
  };
}

function writesOf(call: ToolCallBlock): readonly string[] {
  return fileAccessOf(call, { shell: true })?.writes ?? [];
}

/** Every re-acquisition in the recording (entries in recorded order), in order. */
export function findReacquisitions(contents: readonly IContent[]): Reacquisition[] {
  const pending = new Map<string, Pending>();
  const chains = new Map<string, { files: readonly string[]; acquisitions: Acquisition[] }>();
  const found: Reacquisition[] = [];
  contents.forEach((entry, entryIndex) => {
    entry.blocks.forEach((block, blockIndex) => {
      if (block.type === 'tool_call') {
        pending.set(block.id, { call: block, replyPosition: recordingPosition(entryIndex, 0) });
        return;
      }
      if (block.type !== 'tool_response') return;
      const origin = pending.get(block.callId);
      if (origin === undefined || !responseSucceeded(block)) return;
      pending.delete(block.callId);
      for (const file of writesOf(origin.call)) {
        for (const [key, chain] of chains) if (chain.files.includes(file)) chains.delete(key);
      }
      const acquired = acquisitionKey(origin.call);
      if (acquired === undefined) return;
      const text = blockText(block);
      const acquisition = {
        callId: block.callId,
        position: recordingPosition(entryIndex, blockIndex),
        text,
      };
      const chain = chains.get(acquired.key);
      const isShell = acquired.key.startsWith('shell');
      if (chain === undefined || (isShell && chain.acquisitions.at(-1)?.text !== text)) {
        chains.set(acquired.key, { files: acquired.files, acquisitions: [acquisition] });
        return;
      }
      found.push({
        callId: block.callId,
        replyPosition: origin.replyPosition,
        earlier: [...chain.acquisitions],
      });
      chain.acquisitions.push(acquisition);
    });
  });
  return found;
}
