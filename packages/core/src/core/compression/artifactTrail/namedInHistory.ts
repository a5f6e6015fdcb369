/**
 * What a history shows the model without the artifact trail: its text (is a path or command
 * named in it?) and the outputs it still holds whole or names by recall id. The trail leaves out
 * what the kept history already shows, and the replay's survival metric asks the same question
 * of the history after a compression.
 */
import type { IContent, ToolResponseBlock } from '../../../services/history/IContent.js';
import { isCompactSummary } from '../density/compress/toolResponseSummary.js';
import { resultText } from '../density/toolResultText.js';
import { isPrunedPointer, recallIdOfResponse, recallIdsNamedIn } from '../recallPointers.js';

/** The text a history shows: its text blocks, tool-call parameters (as JSON) and results. */
export function historyText(history: readonly IContent[]): string {
  const parts: string[] = [];
  for (const entry of history) {
    for (const block of entry.blocks) {
      if (block.type === 'text') parts.push(block.text);
      else if (block.type === 'tool_call') parts.push(JSON.stringify(block.parameters));
      else if (block.type === 'tool_response') parts.push(resultText(block.result));
    }
  }
  return parts.join('\n');
}

/**
 * Whether `key` (a path, or a command clipped with a trailing `…`) occurs in `text`, as is or
 * JSON-escaped (a command inside tool-call parameters appears with its quotes escaped).
 */
export function isNamedIn(text: string, key: string): boolean {
  const needle = key.endsWith('…') ? key.slice(0, -1) : key;
  if (text.includes(needle)) return true;
  const escaped = JSON.stringify(needle).slice(1, -1);
  return escaped !== needle && text.includes(escaped);
}

/** What the kept history shows: its text, and the recall ids of outputs it holds or names. */
export interface HistoryView {
  readonly text: string;
  /**
   * Outputs the history still shows whole (their recall ids), and the recall ids it names (pointers,
   * summary lines): the trail need not name these again.
   */
  readonly recallIds: ReadonlySet<string>;
}

export const EMPTY_VIEW: HistoryView = { text: '', recallIds: new Set() };

/** Whether `block` shows its tool's output as it was (not a pointer, a summary or a reply). */
function showsOutputWhole(block: ToolResponseBlock): boolean {
  return (
    block.original === undefined &&
    !isPrunedPointer(block.result) &&
    !isCompactSummary(block.result)
  );
}

export function historyView(history: readonly IContent[]): HistoryView {
  const text = historyText(history);
  const recallIds = new Set<string>();
  for (const entry of history) {
    for (const block of entry.blocks) {
      if (block.type === 'tool_response' && showsOutputWhole(block)) {
        recallIds.add(recallIdOfResponse(block));
      }
    }
  }
  for (const id of recallIdsNamedIn(text)) recallIds.add(id);
  return { text, recallIds };
}
