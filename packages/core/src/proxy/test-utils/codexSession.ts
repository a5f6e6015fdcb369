/**
 * A long Codex-shaped Responses session for the working-budget tests: the leading items Codex
 * sends (its tool list, developer instructions, the environment and the task), then rounds of
 * reasoning + an `exec` call that `cat`s a distinct file (`resultChars` each) and its output.
 * Also a Chat Completions session of the same rounds, and Codex's compaction request.
 */
import { CODEX_COMPACTION_MARKER } from '../budget/clientCompactionRequests.js';
import { fileText } from './longSession.js';

type Json = Record<string, unknown>;

export const CODEX_TASK = 'Make every parser module in src/ validate its input.';

const text = (role: string, value: string): Json => ({
  type: 'message',
  role,
  content: [{ type: 'input_text', text: value }],
});

/** The items Codex sends before the first model output. */
export function codexLeadingItems(): Json[] {
  return [
    { type: 'additional_tools', tools: [{ type: 'custom', name: 'exec', description: 'run JS' }] },
    text('developer', 'You are a coding agent. Sandbox: workspace-write.'),
    text('user', '<environment_context><cwd>/w</cwd></environment_context>'),
    text('user', CODEX_TASK),
  ];
}

export interface CodexRoundOptions {
  /** A reasoning item before each call (Codex sends them with encrypted content). */
  readonly reasoning?: boolean;
}

/** One round: (reasoning,) the `exec` call that cats `m<round>.ts`, its output. */
export function codexRound(
  round: number,
  resultChars: number,
  options: CodexRoundOptions = {},
): Json[] {
  const call = `call_cat_${round}`;
  return [
    ...(options.reasoning === true
      ? [{ type: 'reasoning', summary: [], encrypted_content: `enc-${round}` }]
      : []),
    {
      type: 'custom_tool_call',
      call_id: call,
      name: 'exec',
      input: `text((await tools.exec_command({cmd: "cat src/m${round}.ts"})).output);`,
    },
    {
      type: 'custom_tool_call_output',
      call_id: call,
      output: [
        { type: 'input_text', text: 'Script completed\nWall time 0.1 seconds\nOutput:\n' },
        { type: 'input_text', text: fileText(round, resultChars) },
      ],
    },
  ];
}

export function codexSessionItems(
  rounds: number,
  resultChars: number,
  options: CodexRoundOptions = {},
): Json[] {
  const items = codexLeadingItems();
  for (let round = 0; round < rounds; round++)
    items.push(...codexRound(round, resultChars, options));
  return items;
}

export function codexSessionBody(
  rounds: number,
  resultChars: number,
  options: CodexRoundOptions = {},
): string {
  return JSON.stringify({
    model: 'gpt-6.1-sol',
    stream: true,
    input: codexSessionItems(rounds, resultChars, options),
    store: false,
  });
}

/** Codex's `client_metadata` for a request of `kind` (`turn`, `compaction`). */
export function codexClientMetadata(kind: string): Json {
  return {
    session_id: 'thread-1',
    'x-codex-turn-metadata': JSON.stringify({ session_id: 'thread-1', request_kind: kind }),
  };
}

/**
 * A synthetic compaction request shaped like Codex's: the session, then the marker message, with
 * turn metadata naming it a compaction.
 */
export function codexCompactionRequestBody(rounds = 6, stream = true): string {
  const input = [
    ...codexSessionItems(rounds, 2_000),
    text('user', `${CODEX_COMPACTION_MARKER} Create a handoff summary.`),
  ];
  return JSON.stringify({
    model: 'gpt-6.1-sol',
    stream,
    input,
    store: false,
    client_metadata: codexClientMetadata('compaction'),
  });
}

/** The same rounds as a Chat Completions request (a system message, the task, then turns). */
export function chatSessionBody(rounds: number, resultChars: number): string {
  const messages: Json[] = [
    { role: 'system', content: 'You are a coding agent.' },
    { role: 'user', content: CODEX_TASK },
  ];
  for (let round = 0; round < rounds; round++) {
    const id = `call_read_${round}`;
    messages.push(
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          {
            id,
            type: 'function',
            function: {
              name: 'read_file',
              arguments: JSON.stringify({ path: `src/m${round}.ts` }),
            },
          },
        ],
      },
      { role: 'tool', tool_call_id: id, content: fileText(round, resultChars) },
    );
  }
  return JSON.stringify({ model: 'gpt-4o', messages, stream: true });
}
