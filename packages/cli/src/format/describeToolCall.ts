/**
 * One-line accounts of tool calls and results for people (the conversation view and one-shot
 * progress on stderr): which tool, on what, and how it ended.
 */
import type { ToolCallBlock, ToolResponseBlock } from '@dense/core';

function field(parameters: unknown, name: string): unknown {
  return typeof parameters === 'object' && parameters !== null
    ? (parameters as Record<string, unknown>)[name]
    : undefined;
}

function shorten(text: string, max: number): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/** What the call works on: a path, a pattern, a command — or nothing for argument-less tools. */
export function toolCallTarget(call: Pick<ToolCallBlock, 'parameters'>, max = 80): string {
  const { parameters } = call;
  const command = field(parameters, 'command');
  if (typeof command === 'string') return `\`${shorten(command, max - 2)}\``;
  const paths = field(parameters, 'paths');
  if (Array.isArray(paths)) return shorten(paths.map(String).join(', '), max);
  for (const name of ['file_path', 'path', 'pattern']) {
    const value = field(parameters, name);
    if (typeof value === 'string') return shorten(value, max);
  }
  const todos = field(parameters, 'todos');
  if (Array.isArray(todos)) return `${todos.length} item${todos.length === 1 ? '' : 's'}`;
  return '';
}

export function describeToolCall(
  call: Pick<ToolCallBlock, 'name' | 'parameters'>,
  max = 80,
): string {
  const target = toolCallTarget(call, max);
  return target === '' ? call.name : `${call.name} ${target}`;
}

export type ToolOutcome = 'done' | 'error' | 'denied' | 'cancelled';

export function toolOutcome(response: Pick<ToolResponseBlock, 'error'>): ToolOutcome {
  const { error } = response;
  if (error === undefined) return 'done';
  if (error.startsWith('TOOL_DENIED')) return 'denied';
  if (error.startsWith('ABORTED') || error.startsWith('CANCELLED')) return 'cancelled';
  return 'error';
}

/** The first line of the error, or of the output, shortened. */
export function toolResultLine(
  response: Pick<ToolResponseBlock, 'error' | 'result'>,
  max = 100,
): string {
  const text =
    response.error ??
    (typeof response.result === 'string' ? response.result : JSON.stringify(response.result));
  const first = (text ?? '').split('\n').find((line) => line.trim() !== '') ?? '';
  return shorten(first, max);
}
