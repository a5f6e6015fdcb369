/**
 * A long Claude Code-shaped Anthropic session for the working-budget tests: a task, a TodoWrite
 * call, then rounds of thinking + Read of a distinct file (`resultChars` each) and a Bash run; the
 * newest message carries Claude Code's cache breakpoint.
 */
import {
  COMPACTION_INSTRUCTIONS,
  COMPACTION_MARKER,
  COMPACTION_REMINDER,
  COMPACTION_TASK,
} from '../budget/clientCompactionRequests.js';
import { anthropicBody } from './wireRequests.js';

type Json = Record<string, unknown>;

export const TASK = 'Refactor the parser in src/ so every module validates its input.';
export const TODOS = [
  { content: 'Read every parser module', status: 'completed', activeForm: 'Reading' },
  { content: 'Add validation to lexer.ts', status: 'in_progress', activeForm: 'Adding' },
  { content: 'Run the test suite', status: 'pending', activeForm: 'Running' },
];

export function fileText(round: number, chars: number): string {
  const line = `${round}: export const value${round} = parse(input${round});\n`;
  return line.repeat(Math.ceil(chars / line.length)).slice(0, chars);
}

/** Messages of `rounds` rounds (each: Read, Bash); the last one's result is the newest. */
export function longSessionMessages(rounds: number, resultChars: number): Json[] {
  const messages: Json[] = [
    { role: 'user', content: [{ type: 'text', text: TASK }] },
    {
      role: 'assistant',
      content: [{ type: 'tool_use', id: 'todo1', name: 'TodoWrite', input: { todos: TODOS } }],
    },
    {
      role: 'user',
      content: [{ type: 'tool_result', tool_use_id: 'todo1', content: 'Todos updated' }],
    },
  ];
  for (let round = 0; round < rounds; round++) {
    messages.push(
      {
        role: 'assistant',
        content: [
          { type: 'thinking', thinking: `plan ${round}`, signature: `sig-${round}-abc` },
          { type: 'text', text: `Reading module ${round}.` },
          {
            type: 'tool_use',
            id: `read${round}`,
            name: 'Read',
            input: { file_path: `/w/src/m${round}.ts` },
          },
        ],
      },
      {
        role: 'user',
        content: [
          {
            type: 'tool_result',
            tool_use_id: `read${round}`,
            content: fileText(round, resultChars),
          },
        ],
      },
      {
        role: 'assistant',
        content: [
          {
            type: 'tool_use',
            id: `bash${round}`,
            name: 'Bash',
            input: { command: `npm test -- m${round}` },
          },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: `bash${round}`, content: `ok ${round}: 12 passed` },
        ],
      },
    );
  }
  return messages;
}

/** The session as Claude Code sends it: the breakpoint on the newest message's last block. */
export function longSessionBody(
  rounds: number,
  resultChars: number,
  model = 'claude-sonnet-4-6',
): string {
  const messages = longSessionMessages(rounds, resultChars);
  const last = messages.at(-1) as { content: Json[] };
  const block = last.content.at(-1) as Json;
  last.content[last.content.length - 1] = { ...block, cache_control: { type: 'ephemeral' } };
  return anthropicBody(messages, { model });
}

/**
 * Claude Code's compaction prompt in outline (its marker, task and closing reminder), with the
 * instructions the user typed after `/compact` when there are any.
 */
export function compactionPrompt(instructions?: string): string {
  const typed = instructions === undefined ? '' : `${COMPACTION_INSTRUCTIONS}${instructions}`;
  return `${COMPACTION_MARKER}\n\n- Answer in plain text.\n\n${COMPACTION_TASK}, paying close attention to the user's explicit requests.${typed}${COMPACTION_REMINDER} — an <analysis> block followed by a <summary> block.`;
}

/**
 * A synthetic compaction request shaped like Claude Code's: the prompt is the last block of the
 * last user message, with no cache breakpoint.
 */
export function compactionRequestBody(stream = true, instructions?: string): string {
  const messages = longSessionMessages(6, 2_000);
  const last = messages.at(-1) as { content: Json[] };
  last.content.push({ type: 'text', text: compactionPrompt(instructions) });
  return anthropicBody(messages, { model: 'claude-sonnet-4-6', stream });
}

/** A Read whose result is `lines` lines long (40,000 characters at the default): a large new turn. */
export function bigReadTurn(lines = 2_500): Json[] {
  return [
    {
      role: 'assistant',
      content: [{ type: 'tool_use', id: 'big', name: 'Read', input: { file_path: '/w/big.ts' } }],
    },
    {
      role: 'user',
      content: [
        { type: 'tool_result', tool_use_id: 'big', content: 'const wide = 1;\n'.repeat(lines) },
      ],
    },
  ];
}

/** One short reply: a Bash call (`id`) and its output. */
export function shortReplyTurn(id = 'after'): Json[] {
  return [
    {
      role: 'assistant',
      content: [{ type: 'tool_use', id, name: 'Bash', input: { command: 'npm test' } }],
    },
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: 'ok' }] },
  ];
}
