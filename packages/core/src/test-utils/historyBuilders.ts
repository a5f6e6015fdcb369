/** Terse builders for history entries in tests. */
import {
  createAiMessage,
  createToolResponse,
  createUserMessage,
  textBlock,
  toolCallBlock,
  type ContentBlock,
  type IContent,
} from '../services/history/IContent.js';

export function human(text: string): IContent {
  return createUserMessage(text);
}

export function ai(text: string): IContent {
  return createAiMessage(text);
}

export interface CallSpec {
  readonly id: string;
  readonly name: string;
  readonly parameters?: unknown;
}

/** An AI entry making one or more tool calls, optionally after some text. */
export function toolCall(calls: CallSpec | readonly CallSpec[], text?: string): IContent {
  const list: readonly CallSpec[] = Array.isArray(calls) ? calls : [calls as CallSpec];
  const blocks: ContentBlock[] = text === undefined ? [] : [textBlock(text)];
  for (const call of list) blocks.push(toolCallBlock(call.id, call.name, call.parameters ?? {}));
  return createAiMessage(blocks);
}

export interface ResultSpec {
  readonly id: string;
  readonly name: string;
  readonly result?: unknown;
  readonly error?: string;
}

/** A tool entry answering one or more calls. */
export function toolResult(results: ResultSpec | readonly ResultSpec[]): IContent {
  const list: readonly ResultSpec[] = Array.isArray(results) ? results : [results as ResultSpec];
  return createToolResponse(
    list.map((r) => ({
      callId: r.id,
      toolName: r.name,
      result: r.result ?? '',
      ...(r.error === undefined ? {} : { error: r.error }),
    })),
  );
}

/** A call entry and its result entry: `[aiCall, toolResult]`. */
export function toolRoundTrip(
  id: string,
  name: string,
  parameters: unknown,
  result: unknown,
  error?: string,
): [IContent, IContent] {
  return [
    toolCall({ id, name, parameters }),
    toolResult({ id, name, result, ...(error === undefined ? {} : { error }) }),
  ];
}

export function readFile(id: string, filePath: string, content: string): [IContent, IContent] {
  return toolRoundTrip(id, 'read_file', { file_path: filePath }, content);
}

export function replaceInFile(id: string, filePath: string, error?: string): [IContent, IContent] {
  return toolRoundTrip(
    id,
    'replace',
    { file_path: filePath, old_string: 'a', new_string: 'b' },
    error === undefined ? 'Successfully modified file.' : '',
    error,
  );
}
