/**
 * A recap of recorded history as conversation items (for `--resume`): user messages without their
 * inlined files, reply text, and each tool call with how it ended.
 */
import {
  findFileInclusions,
  getText,
  pairToolCallsByPosition,
  type IContent,
  type ToolCallBlock,
  type ToolResponseBlock,
} from '@dense/core';
import { toolCallTarget, toolOutcome, toolResultLine } from '../format/describeToolCall.js';
import type { NewItem } from './conversation.js';

/** The prompt as typed: the text before its first inclusion marker. */
function typedText(entry: IContent): string {
  const text = getText(entry);
  const first = findFileInclusions(text)[0];
  return (first === undefined ? text : text.slice(0, first.start)).trim();
}

/** The response answering each call, paired by position (servers may reuse ids). */
function responsesByCall(history: readonly IContent[]): Map<ToolCallBlock, ToolResponseBlock> {
  const byCall = new Map<ToolCallBlock, ToolResponseBlock>();
  for (const call of pairToolCallsByPosition(history).calls) {
    const response = call.responses[0];
    if (response) byCall.set(call.block, response.block);
  }
  return byCall;
}

function entryItems(entry: IContent, responses: Map<ToolCallBlock, ToolResponseBlock>): NewItem[] {
  if (entry.speaker === 'human') {
    const text = typedText(entry);
    return text === '' ? [] : [{ kind: 'user', text, included: [] }];
  }
  if (entry.speaker !== 'ai') return [];
  const items: NewItem[] = [];
  const text = getText(entry).trim();
  if (text !== '') items.push({ kind: 'assistant', text, done: true });
  for (const block of entry.blocks) {
    if (block.type !== 'tool_call') continue;
    const response = responses.get(block);
    items.push({
      kind: 'tool',
      callId: block.id,
      name: block.name,
      target: toolCallTarget(block),
      status: response ? toolOutcome(response) : 'cancelled',
      ...(response ? { detail: toolResultLine(response) } : {}),
    });
  }
  return items;
}

/** Items for the last `maxItems` things that happened in `history`. */
export function historyItems(history: readonly IContent[], maxItems: number): NewItem[] {
  const responses = responsesByCall(history);
  const items = history.flatMap((entry) => entryItems(entry, responses));
  return items.slice(Math.max(0, items.length - maxItems));
}
