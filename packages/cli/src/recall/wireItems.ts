/**
 * Whether a recall original is a run of wire messages (Anthropic Messages `messages`, OpenAI Chat
 * `messages`, OpenAI Responses `input` items) and its items when it is. The proxy stores such a run
 * as the raw JSON of the request's items, comma-joined without the enclosing brackets; a whole JSON
 * array or one message object is read the same way.
 */

/** One parsed wire message or item. */
export type WireItem = Readonly<Record<string, unknown>>;

const ROLES = new Set(['user', 'assistant', 'system', 'developer', 'tool', 'function']);

/** Responses API input item types (besides role messages). */
export const RESPONSES_ITEM_TYPES = new Set([
  'message',
  'function_call',
  'function_call_output',
  'custom_tool_call',
  'custom_tool_call_output',
  'local_shell_call',
  'local_shell_call_output',
  'reasoning',
  'web_search_call',
  'file_search_call',
  'computer_call',
  'computer_call_output',
  'image_generation_call',
  'code_interpreter_call',
  'mcp_call',
  'mcp_list_tools',
  'mcp_approval_request',
  'mcp_approval_response',
  'item_reference',
  'compaction',
  'additional_tools',
]);

export function isRecord(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `value[key]` when it is a string. */
export function stringOf(value: unknown, key: string): string | undefined {
  const member = isRecord(value) ? value[key] : undefined;
  return typeof member === 'string' ? member : undefined;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function isKnown(item: WireItem): boolean {
  const role = stringOf(item, 'role');
  const type = stringOf(item, 'type');
  return (
    (role !== undefined && ROLES.has(role)) ||
    (type !== undefined && RESPONSES_ITEM_TYPES.has(type))
  );
}

/**
 * The wire items `text` holds, or `undefined` when it is anything else. Every item must be an
 * object with a string `role` or `type`, and at least one a known role or Responses item type.
 */
export function wireItemsOf(text: string): readonly WireItem[] | undefined {
  const start = text.trimStart()[0];
  if (start !== '[' && start !== '{') return undefined;
  const parsed = parseJson(start === '[' ? text : `[${text}]`);
  if (!Array.isArray(parsed) || parsed.length === 0) return undefined;
  const items: WireItem[] = [];
  for (const item of parsed as unknown[]) {
    if (!isRecord(item)) return undefined;
    if (stringOf(item, 'role') === undefined && stringOf(item, 'type') === undefined)
      return undefined;
    items.push(item);
  }
  return items.some(isKnown) ? items : undefined;
}
