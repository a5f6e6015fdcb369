/**
 * Transcript lines of message content in any of the three wire shapes: a string, or a list of
 * parts (Anthropic blocks, Chat content parts, Responses content and output parts). Text is kept
 * as is; tool calls and results get one header line each; images and documents one placeholder
 * line (never their base64); a part of an unknown type one `[type] {…}` line.
 */
import { parsedArguments, toolCallLines } from './toolCallLines.js';
import { isRecord, stringOf } from './wireItems.js';

/** Tool names by call id, filled from the calls seen so far so results can name their tool. */
export type CallNames = Map<string, string>;

const TEXT_PARTS = new Set(['text', 'input_text', 'output_text', 'summary_text', 'reasoning_text']);
const IMAGE_PARTS = new Set(['image', 'input_image', 'image_url']);
const FILE_PARTS = new Set(['document', 'input_file', 'file']);
const CALL_PARTS = new Set(['tool_use', 'server_tool_use', 'mcp_tool_use']);
/** Characters of an unknown part's JSON shown on its line. */
const UNKNOWN_CHARS = 200;

export function textLines(text: string): string[] {
  return text === '' ? [] : text.split('\n');
}

function clipped(text: string, chars: number): string {
  return text.length <= chars ? text : `${text.slice(0, chars)}…`;
}

function sizeOf(base64: string): string {
  const kb = Math.round((base64.length * 3) / 4 / 1024);
  return `${kb.toLocaleString('en-US')} KB`;
}

/** `[image image/png, 41 KB]`, `[image https://…]`. */
function imageLine(part: Readonly<Record<string, unknown>>): string {
  const source = part.source;
  const media = stringOf(source, 'media_type');
  const data = stringOf(source, 'data');
  if (media !== undefined && data !== undefined) return `[image ${media}, ${sizeOf(data)}]`;
  const url =
    stringOf(part, 'image_url') ?? stringOf(part.image_url, 'url') ?? stringOf(source, 'url');
  if (url === undefined) return '[image]';
  const dataUrl = /^data:([^;,]+)[^,]*,(.*)$/s.exec(url);
  if (dataUrl) return `[image ${dataUrl[1] ?? ''}, ${sizeOf(dataUrl[2] ?? '')}]`;
  return `[image ${clipped(url, UNKNOWN_CHARS)}]`;
}

function fileLine(part: Readonly<Record<string, unknown>>): string {
  const name =
    stringOf(part, 'title') ??
    stringOf(part, 'filename') ??
    stringOf(part.source, 'media_type') ??
    stringOf(part, 'file_id');
  return name === undefined ? '[document]' : `[document ${name}]`;
}

/** `[type] {…}` for a part or item this renderer does not know. */
export function unknownLine(label: string, value: Readonly<Record<string, unknown>>): string {
  const rest = Object.fromEntries(Object.entries(value).filter(([key]) => key !== 'type'));
  return `[${label}] ${clipped(JSON.stringify(rest), UNKNOWN_CHARS)}`;
}

/** Lines of one tool result: `result <tool> [<id>]` (` (error)`), then its content. */
export function resultLines(
  input: {
    readonly callId: string | undefined;
    readonly isError: boolean;
    readonly content: unknown;
  },
  names: CallNames,
): string[] {
  const name = input.callId === undefined ? undefined : names.get(input.callId);
  const parts = ['result', ...(name === undefined ? [] : [name])];
  if (input.callId !== undefined) parts.push(`[${input.callId}]`);
  if (input.isError) parts.push('(error)');
  return [parts.join(' '), ...contentLines(input.content, names)];
}

type Part = Readonly<Record<string, unknown>>;
type PartRenderer = (part: Part, names: CallNames) => string[];

function callPartLines(part: Part, names: CallNames): string[] {
  const name = stringOf(part, 'name') ?? stringOf(part, 'type') ?? 'tool';
  const id = stringOf(part, 'id');
  if (id !== undefined) names.set(id, name);
  return toolCallLines(name, id, part.input);
}

/** A Chat `tool_calls` entry: `{id, type: 'function', function: {name, arguments}}`. */
function functionPartLines(part: Part, names: CallNames): string[] {
  const name = stringOf(part.function, 'name') ?? 'function';
  const id = stringOf(part, 'id');
  if (id !== undefined) names.set(id, name);
  return toolCallLines(name, id, parsedArguments(stringOf(part.function, 'arguments') ?? ''));
}

function toolResultPartLines(part: Part, names: CallNames): string[] {
  const callId = stringOf(part, 'tool_use_id');
  return resultLines({ callId, isError: part.is_error === true, content: part.content }, names);
}

const textPart: PartRenderer = (part) => textLines(stringOf(part, 'text') ?? '');

const PART_RENDERERS: ReadonlyMap<string, PartRenderer> = new Map<string, PartRenderer>([
  ...[...TEXT_PARTS].map((type): [string, PartRenderer] => [type, textPart]),
  ...[...CALL_PARTS].map((type): [string, PartRenderer] => [type, callPartLines]),
  ...[...IMAGE_PARTS].map((type): [string, PartRenderer] => [type, (part) => [imageLine(part)]]),
  ...[...FILE_PARTS].map((type): [string, PartRenderer] => [type, (part) => [fileLine(part)]]),
  ['refusal', (part) => [`[refusal] ${stringOf(part, 'refusal') ?? ''}`]],
  ['tool_result', toolResultPartLines],
  ['thinking', (part) => ['[thinking]', ...textLines(stringOf(part, 'thinking') ?? '')]],
  ['redacted_thinking', () => ['[redacted thinking]']],
  ['function', functionPartLines],
]);

function partLines(part: unknown, names: CallNames): string[] {
  if (typeof part === 'string') return textLines(part);
  if (!isRecord(part)) return [JSON.stringify(part) ?? ''];
  const type = stringOf(part, 'type') ?? '';
  const render =
    PART_RENDERERS.get(type) ?? (type.endsWith('_tool_result') ? toolResultPartLines : undefined);
  return render === undefined
    ? [unknownLine(type === '' ? 'part' : type, part)]
    : render(part, names);
}

/** Lines of a message's content: a string, a list of parts, or nothing. */
export function contentLines(content: unknown, names: CallNames): string[] {
  if (content === undefined || content === null) return [];
  if (Array.isArray(content)) return content.flatMap((part) => partLines(part, names));
  return partLines(content, names);
}
