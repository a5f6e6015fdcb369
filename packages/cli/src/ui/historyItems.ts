/**
 * A recap of recorded history as conversation items (for `--resume`): user messages without their
 * inlined files, reply text, and each tool call with how it ended.
 */
import { findFileInclusions, getText, type IContent, type ToolResponseBlock } from '@dense/core';
import { toolCallTarget, toolOutcome, toolResultLine } from '../format/describeToolCall.js';
import type { NewItem } from './conversation.js';

/** The prompt as typed: the text before its first inclusion marker. */
function typedText(entry: IContent): string {
  const text = getText(entry);
  const first = findFileInclusions(text)[0];
  return (first === undefined ? text : text.slice(0, first.start)).trim();
}

function responsesById(history: readonly IContent[]): Map<string, ToolResponseBlock> {
  const byId = new Map<string, ToolResponseBlock>();
  for (const entry of history) {
    for (const block of entry.blocks) {
      if (block.type === 'tool_response') byId.set(block.callId, block);
    }
  }
  return byId;
}

function entryItems(entry: IContent, responses: Map<string, ToolResponseBlock>): NewItem[] {
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
    const response = responses.get(block.id);
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
  const responses = responsesById(history);
  const items = history.flatMap((entry) => entryItems(entry, responses));
  return items.slice(Math.max(0, items.length - maxItems));
}
