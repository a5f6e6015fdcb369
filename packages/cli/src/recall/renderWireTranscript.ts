/**
 * A run of wire messages rendered as a transcript a shell user (or an agent) can read and grep:
 * one block per message or item, `#<n> <role>` first, then its text, tool calls
 * (`call <tool> [<id>] <input>`) and tool results (`result <tool> [<id>]` and their text), blocks
 * separated by an empty line. Reasoning shows its summary text only.
 */
import {
  contentLines,
  resultLines,
  textLines,
  unknownLine,
  type CallNames,
} from './contentPartLines.js';
import { parsedArguments, toolCallLines } from './toolCallLines.js';
import { isRecord, stringOf, wireItemsOf, type WireItem } from './wireItems.js';

const OUTPUT_ITEMS = new Set([
  'function_call_output',
  'custom_tool_call_output',
  'local_shell_call_output',
  'computer_call_output',
]);

function call(names: CallNames, name: string, id: string | undefined, input: unknown): string[] {
  if (id !== undefined) names.set(id, name);
  return toolCallLines(name, id, input);
}

/** A Chat or Anthropic message, or a Responses `message` item. */
function roleMessageLines(item: WireItem, role: string, names: CallNames): string[] {
  if (role === 'tool' || role === 'function') {
    const callId = stringOf(item, 'tool_call_id') ?? stringOf(item, 'name');
    return resultLines({ callId, isError: false, content: item.content }, names);
  }
  const lines: string[] = [];
  const reasoning = stringOf(item, 'reasoning_content');
  if (reasoning !== undefined && reasoning !== '')
    lines.push('[thinking]', ...textLines(reasoning));
  lines.push(...contentLines(item.content, names));
  if (Array.isArray(item.tool_calls)) lines.push(...contentLines(item.tool_calls, names));
  if (isRecord(item.function_call)) {
    const name = stringOf(item.function_call, 'name') ?? 'function';
    const input = parsedArguments(stringOf(item.function_call, 'arguments') ?? '');
    lines.push(...call(names, name, name, input));
  }
  return lines;
}

function shellCommand(item: WireItem): string {
  const command = isRecord(item.action) ? item.action.command : undefined;
  return Array.isArray(command) ? command.map(String).join(' ') : '';
}

function reasoningLines(item: WireItem): string[] {
  const summary = Array.isArray(item.summary) ? item.summary : [];
  const texts = summary.flatMap((part) => textLines(stringOf(part, 'text') ?? ''));
  return ['[reasoning]', ...texts];
}

interface Block {
  readonly role: string;
  readonly lines: string[];
}

/** A Responses item other than a role message. */
function responsesItemBlock(item: WireItem, type: string | undefined, names: CallNames): Block {
  const callId = stringOf(item, 'call_id');
  switch (type ?? '') {
    case 'function_call': {
      const input = parsedArguments(stringOf(item, 'arguments') ?? '');
      return {
        role: 'assistant',
        lines: call(names, stringOf(item, 'name') ?? 'function', callId, input),
      };
    }
    case 'custom_tool_call':
      return {
        role: 'assistant',
        lines: call(names, stringOf(item, 'name') ?? 'tool', callId, stringOf(item, 'input')),
      };
    case 'local_shell_call':
      return { role: 'assistant', lines: call(names, 'shell', callId, shellCommand(item)) };
    case 'reasoning':
      return { role: 'assistant', lines: reasoningLines(item) };
    default:
      if (type !== undefined && OUTPUT_ITEMS.has(type)) {
        return {
          role: 'tool',
          lines: resultLines({ callId, isError: false, content: item.output }, names),
        };
      }
      return { role: type ?? 'item', lines: [unknownLine(type ?? 'item', item)] };
  }
}

/** The role shown for an item, and its lines. */
function itemBlock(item: WireItem, names: CallNames): Block {
  const type = stringOf(item, 'type');
  const role = stringOf(item, 'role');
  if (role !== undefined && (type === undefined || type === 'message')) {
    return { role, lines: roleMessageLines(item, role, names) };
  }
  return responsesItemBlock(item, type, names);
}

/** The transcript of `items`, one line per array element (no line breaks inside). */
export function transcriptLines(items: readonly WireItem[]): string[] {
  const names: CallNames = new Map();
  const lines: string[] = [];
  items.forEach((item, index) => {
    const block = itemBlock(item, names);
    if (index > 0) lines.push('');
    lines.push(`#${index + 1} ${block.role}`, ...block.lines);
  });
  return lines;
}

/**
 * The transcript of a recall original when it is a run of wire messages (see `wireItems.ts`),
 * newline-terminated; `undefined` when it is anything else (to be printed as is).
 */
export function renderWireTranscript(text: string): string | undefined {
  const items = wireItemsOf(text);
  return items === undefined ? undefined : `${transcriptLines(items).join('\n')}\n`;
}
