/**
 * Builders for the proxy's tests: a Claude Code-shaped Anthropic session (Read, Edit, Read), a
 * Codex-shaped Responses session and Chat Completions turns, as request bodies whose bytes the
 * tests compare.
 */

import { ConversationStore } from '../decide/conversationStore.js';
import type { DensifyOptions } from '../densify/densifyRequest.js';
import { parseJsonSpans } from '../wire/jsonSpans.js';
import { readOpenAIRequest } from '../wire/openaiHistory.js';

type Json = Record<string, unknown>;

export const FILE_TEXT = Array.from(
  { length: 120 },
  (_, i) => `${i + 1}\tconst v${i} = ${i};`,
).join('\n');

export function anthropicBody(messages: readonly Json[], extra: Json = {}): string {
  return JSON.stringify({
    model: 'claude-test',
    messages,
    system: [{ type: 'text', text: 'You are a test.', cache_control: { type: 'ephemeral' } }],
    tools: [{ name: 'Read' }, { name: 'Edit' }],
    max_tokens: 100,
    stream: true,
    ...extra,
  });
}

const user = (text: string): Json => ({ role: 'user', content: [{ type: 'text', text }] });
const toolUse = (id: string, name: string, input: Json): Json => ({
  role: 'assistant',
  content: [{ type: 'tool_use', id, name, input }],
});
const toolResult = (id: string, content: unknown, isError = false): Json => ({
  role: 'user',
  content: [
    { type: 'tool_result', tool_use_id: id, content, ...(isError ? { is_error: true } : {}) },
  ],
});

export interface SessionOptions {
  readonly editFails?: boolean;
  readonly readContent?: unknown;
  /** The first read's tool and input, in place of `Read` of /w/a.ts. */
  readonly readCall?: { readonly name: string; readonly input: Json };
}

/** Messages of a Read → Edit → Read session cut after `steps` tool results (0–3). */
export function claudeSession(steps: number, options: SessionOptions = {}): Json[] {
  const messages: Json[] = [user('edit a.ts')];
  const read = options.readContent ?? FILE_TEXT;
  const script: [Json, Json][] = [
    [
      toolUse(
        'r1',
        options.readCall?.name ?? 'Read',
        options.readCall?.input ?? { file_path: '/w/a.ts' },
      ),
      toolResult('r1', read),
    ],
    [
      toolUse('e1', 'Edit', { file_path: '/w/a.ts', old_string: 'v1', new_string: 'w1' }),
      toolResult('e1', 'The file /w/a.ts has been updated.', options.editFails === true),
    ],
    [toolUse('r2', 'Read', { file_path: '/w/a.ts' }), toolResult('r2', `${FILE_TEXT}\n// edited`)],
  ];
  for (const [call, result] of script.slice(0, steps)) messages.push(call, result);
  return messages;
}

export interface CodexOptions {
  /** The patch's call and output, in place of a custom `apply_patch` that succeeds. */
  readonly patch?: readonly [Json, Json];
}

/** A Codex patch run through the shell tool (`bash -lc "apply_patch <<'EOF' …"`). */
export function codexShellPatch(id: string, output: string): [Json, Json] {
  const script =
    "apply_patch <<'EOF'\n*** Begin Patch\n*** Update File: /w/a.ts\n-v1\n+w1\n*** End Patch\nEOF";
  return [
    {
      type: 'function_call',
      call_id: id,
      name: 'shell',
      arguments: JSON.stringify({ command: ['bash', '-lc', script] }),
    },
    { type: 'function_call_output', call_id: id, output },
  ];
}

/** A Codex Responses request: `cat` a file, patch it, `cat` it again (cut after `steps`). */
export function codexBody(steps: number, options: CodexOptions = {}): string {
  const items: Json[] = [
    { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'fix a.ts' }] },
  ];
  const call = (id: string, name: string, args: unknown): Json =>
    name === 'apply_patch'
      ? { type: 'custom_tool_call', call_id: id, name, input: args }
      : { type: 'function_call', call_id: id, name, arguments: JSON.stringify(args) };
  const out = (id: string, output: string, type = 'function_call_output'): Json => ({
    type,
    call_id: id,
    output,
  });
  const patch: readonly [Json, Json] = options.patch ?? [
    call('p1', 'apply_patch', '*** Begin Patch\n*** Update File: /w/a.ts\n-v1\n+w1\n*** End Patch'),
    out('p1', 'Done!', 'custom_tool_call_output'),
  ];
  const script: (readonly [Json, Json])[] = [
    [call('c1', 'shell', { command: ['cat', '/w/a.ts'] }), out('c1', FILE_TEXT)],
    patch,
    [call('c2', 'shell', { command: ['cat', '/w/a.ts'] }), out('c2', `${FILE_TEXT}\n// edited`)],
  ];
  for (const [c, o] of script.slice(0, steps)) items.push(c, o);
  return JSON.stringify({
    model: 'gpt-test',
    instructions: 'be brief',
    input: items,
    stream: true,
  });
}

/** One Chat Completions tool turn: the assistant's call and the tool message answering it. */
export function chatTurn(id: string, name: string, args: Json, output: string): Json[] {
  return [
    {
      role: 'assistant',
      content: null,
      tool_calls: [{ id, type: 'function', function: { name, arguments: JSON.stringify(args) } }],
    },
    { role: 'tool', tool_call_id: id, content: output },
  ];
}

/** A Chat Completions request: a system and a user message, then `turns`. */
export function chatBody(turns: readonly Json[]): string {
  return JSON.stringify({
    model: 'gpt-test',
    messages: [
      { role: 'system', content: 'You are a test.' },
      { role: 'user', content: 'edit a.ts' },
      ...turns,
    ],
    stream: true,
  });
}

/** Any proxy pointer as plain text (its recall id depends on the result it replaced). */
export const POINTER_TEXT =
  /\[Result pruned \(stale read\) — run `dense recall (r[0-9a-f]{10})` to see the original(?:\. The version read then [^\]]*)?\]/;

/** Any proxy pointer as a JSON string in a request body. */
export const POINTER_JSON = new RegExp(`"${POINTER_TEXT.source}"`);

/** A JSON value that is exactly one pointer string. */
export const WHOLE_POINTER_JSON = new RegExp(`^${POINTER_JSON.source}$`);

/** Matches `prefix` followed at once by a pointer's JSON string. */
export function pointerAfter(prefix: string): RegExp {
  return new RegExp(prefix.replace(/[.*+?^${}()|[\]\\]/g, '\\$&') + POINTER_JSON.source);
}

/** `sent` with its first pointer put back as the JSON string of `original`. */
export function unpointed(sent: string, original: string): string {
  return sent.replace(POINTER_JSON, () => JSON.stringify(original));
}

/** The recall id named by the first pointer in `text`, if any. */
export function pointedId(text: string): string | undefined {
  return POINTER_TEXT.exec(text)?.[1];
}

/** `densifyRequest` options for an Anthropic body of conversation `S1`, a fresh store, no pressure. */
export function densifyOptions(body: string, extra: Partial<DensifyOptions> = {}): DensifyOptions {
  return {
    api: 'anthropic',
    body: Buffer.from(body),
    sessionId: 'S1',
    store: new ConversationStore(),
    now: 0,
    pressureTokens: 1_000_000,
    ...extra,
  };
}

/**
 * The raw JSON of each tool output in an OpenAI request body, by call id (the last one wins): the
 * `content` of Chat Completions `tool` messages and the `output` of Responses
 * `custom_tool_call_output` items.
 */
export function toolOutputs(text: string): Map<string, string> {
  const root = JSON.parse(text) as { messages?: Json[]; input?: Json[] };
  const chat = (root.messages ?? [])
    .filter((message) => message.role === 'tool')
    .map((message): [string, string] => [
      String(message.tool_call_id),
      JSON.stringify(message.content),
    ]);
  const responses = (root.input ?? [])
    .filter((item) => item.type === 'custom_tool_call_output')
    .map((item): [string, string] => [String(item.call_id), JSON.stringify(item.output)]);
  return new Map([...chat, ...responses]);
}

/** The wire history `readOpenAIRequest` reads from `text`; throws with the reason when unsupported. */
export function readOpenAIHistory(text: string, api: 'openai-chat' | 'openai-responses') {
  const read = readOpenAIRequest(text, parseJsonSpans(text), api);
  if (read.kind !== 'history') throw new Error(read.reason);
  return read.wire;
}
