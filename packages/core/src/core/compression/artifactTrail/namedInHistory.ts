/**
 * Whether a path or command is named somewhere in a history's text: what the model can see
 * without the artifact trail. The trail leaves out what the kept history already names, and the
 * replay's survival metric asks the same question of the history after a compression.
 */
import type { IContent } from '../../../services/history/IContent.js';
import { resultText } from '../density/toolResultText.js';

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
