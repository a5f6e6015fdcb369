/**
 * An imported history back in the wire form its client sent: Anthropic Messages for Claude Code
 * (tool names and parameters un-aliased to Claude Code's own, consecutive entries of one role
 * merged into one message, tool results first in their user message), Responses API input items
 * for Codex. Recorded reasoning is not imported and so not sent; images go as a short text
 * placeholder (the bench bills text).
 */
import type { ContentBlock, IContent } from '@dense/core';

type Json = Record<string, unknown>;

/** Canonical tool names back to Claude Code's (parameters renamed where the alias renamed them). */
const CLAUDE_NAMES: Readonly<Record<string, readonly [string, Readonly<Record<string, string>>]>> =
  {
    read_file: ['Read', {}],
    write_file: ['Write', {}],
    replace: ['Edit', {}],
    run_shell_command: ['Bash', { timeout_ms: 'timeout' }],
    glob: ['Glob', {}],
    grep: ['Grep', { include: 'glob' }],
    list_directory: ['LS', {}],
    todo_write: ['TodoWrite', {}],
  };

function renamed(parameters: unknown, renames: Readonly<Record<string, string>>): unknown {
  if (typeof parameters !== 'object' || parameters === null || Array.isArray(parameters)) {
    return parameters;
  }
  return Object.fromEntries(
    Object.entries(parameters).map(([key, value]) => [renames[key] ?? key, value]),
  );
}

/** A canonical call as Claude Code named it. */
export function claudeToolCall(
  name: string,
  parameters: unknown,
): { name: string; input: unknown } {
  const alias = CLAUDE_NAMES[name];
  return alias === undefined
    ? { name, input: parameters ?? {} }
    : { name: alias[0], input: renamed(parameters, alias[1]) };
}

export function resultText(result: unknown): string {
  if (typeof result === 'string') return result;
  if (result === undefined || result === null) return '';
  return JSON.stringify(result);
}

function anthropicBlock(block: ContentBlock): Json | undefined {
  switch (block.type) {
    case 'text':
      return block.text.trim() === '' ? undefined : { type: 'text', text: block.text };
    case 'code':
      return { type: 'text', text: block.code };
    case 'media':
      return { type: 'text', text: `[${block.mimeType} attachment]` };
    case 'thinking':
      return undefined;
    case 'tool_call': {
      const call = claudeToolCall(block.name, block.parameters);
      return { type: 'tool_use', id: block.id, name: call.name, input: call.input };
    }
    case 'tool_response':
      return {
        type: 'tool_result',
        tool_use_id: block.callId,
        content: block.error ?? resultText(block.result),
        ...(block.error === undefined ? {} : { is_error: true }),
      };
    default: {
      const unreachable: never = block;
      return unreachable;
    }
  }
}

/** The Anthropic `messages` for `entries`. */
export function anthropicMessages(entries: readonly IContent[]): Json[] {
  const messages: { role: string; content: Json[] }[] = [];
  for (const entry of entries) {
    const role = entry.speaker === 'ai' ? 'assistant' : 'user';
    const blocks = entry.blocks
      .map(anthropicBlock)
      .filter((block): block is Json => block !== undefined);
    if (blocks.length === 0) continue;
    const last = messages.at(-1);
    if (last?.role === role) {
      const results = blocks.filter((block) => block.type === 'tool_result');
      const rest = blocks.filter((block) => block.type !== 'tool_result');
      const firstOther = last.content.findIndex((block) => block.type !== 'tool_result');
      const at = firstOther === -1 ? last.content.length : firstOther;
      last.content.splice(at, 0, ...results);
      last.content.push(...rest);
    } else messages.push({ role, content: blocks });
  }
  return messages;
}

/** The Responses API `input` items for `entries` (Codex). */
export function responsesInput(entries: readonly IContent[]): Json[] {
  const items: Json[] = [];
  for (const entry of entries) {
    const role = entry.speaker === 'ai' ? 'assistant' : 'user';
    const textType = role === 'assistant' ? 'output_text' : 'input_text';
    for (const block of entry.blocks) {
      if (block.type === 'text' && block.text.trim() !== '') {
        items.push({ type: 'message', role, content: [{ type: textType, text: block.text }] });
      } else if (block.type === 'tool_call') {
        items.push({
          type: 'function_call',
          call_id: block.id,
          name: block.name === 'run_shell_command' ? 'shell_command' : block.name,
          arguments: JSON.stringify(renamed(block.parameters, { cwd: 'workdir' })),
        });
      } else if (block.type === 'tool_response') {
        items.push({
          type: 'function_call_output',
          call_id: block.callId,
          output: block.error ?? resultText(block.result),
        });
      }
    }
  }
  return items;
}
