/**
 * The text the grounding oracle searches: what a context entry shows the model (every block, string
 * leaves of parameters and results rather than their JSON, so that escapes do not glue words), and
 * what an agent's reply used (its text and its tool-call arguments; its thinking is not an action).
 * Cached by entry identity: entries are immutable values shared by every policy's history. Pure.
 */
import type { ContentBlock, IContent } from '../../services/history/IContent.js';

const SEPARATOR = '\n';

/** Every string inside `value`, depth first (object keys left out). */
function stringLeaves(value: unknown, out: string[], depth = 0): void {
  if (typeof value === 'string') out.push(value);
  else if (typeof value === 'number' || typeof value === 'boolean') out.push(String(value));
  else if (depth > 32 || value === null || typeof value !== 'object') return;
  else if (Array.isArray(value)) for (const item of value) stringLeaves(item, out, depth + 1);
  else for (const item of Object.values(value)) stringLeaves(item, out, depth + 1);
}

/** The strings inside `value` joined by newlines: what a value of unknown shape shows. */
export function leaves(value: unknown): string {
  const out: string[] = [];
  stringLeaves(value, out);
  return out.join(SEPARATOR);
}

/** What one block shows the model. */
export function blockText(block: ContentBlock): string {
  switch (block.type) {
    case 'text':
      return block.text;
    case 'tool_call':
      return `${block.name}${SEPARATOR}${leaves(block.parameters)}`;
    case 'tool_response':
      return block.error === undefined
        ? leaves(block.result)
        : `${leaves(block.result)}${SEPARATOR}${block.error}`;
    case 'thinking':
      return block.thought;
    case 'code':
      return block.code;
    case 'media':
      return [block.caption, block.filename].filter((part) => part !== undefined).join(SEPARATOR);
    default: {
      const never: never = block;
      return never;
    }
  }
}

const shownCache = new WeakMap<IContent, string>();

/** What `entry` shows the model, all blocks joined. */
export function shownText(entry: IContent): string {
  let text = shownCache.get(entry);
  if (text === undefined) {
    text = entry.blocks.map(blockText).join(SEPARATOR);
    shownCache.set(entry, text);
  }
  return text;
}

/** What an agent's reply used: its text and code, and its tool calls' arguments. */
export function usedText(reply: IContent): string {
  return reply.blocks
    .filter((block) => block.type === 'text' || block.type === 'code' || block.type === 'tool_call')
    .map((block) => (block.type === 'tool_call' ? leaves(block.parameters) : blockText(block)))
    .join(SEPARATOR);
}
