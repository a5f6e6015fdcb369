/**
 * A Claude Code-shaped Anthropic request of about `tokens` tokens (chars / 4): rounds of Read a
 * 4 KB file, Edit it, Bash output, for the proxy's benchmarks. `bigSessionTurns` gives consecutive
 * requests of one such conversation, each with the cache breakpoint on its newest message's last
 * block, as the client sends them.
 */
import { anthropicBody } from './wireRequests.js';

type Json = Record<string, unknown>;

const FILE = Array.from(
  { length: 80 },
  (_, i) => `${i + 1}\tconst value${i} = compute(${i});`,
).join('\n');

/** Text the client may send beyond ASCII: accents in the prompt, box-drawing in tool output. */
export interface BigSessionOptions {
  readonly nonAscii?: boolean;
}

function bigSessionMessages(tokens: number, options: BigSessionOptions = {}): Json[] {
  const prompt = options.nonAscii === true ? 'refactor — café' : 'refactor';
  const bash = (round: number) =>
    options.nonAscii === true ? `│ ok ${round}\n`.repeat(40) : `ok ${round}\n`.repeat(40);
  const messages: Json[] = [{ role: 'user', content: [{ type: 'text', text: prompt }] }];
  let chars = 0;
  for (let round = 0; chars < tokens * 4; round++) {
    const file = `/w/src/file${round % 40}.ts`;
    const rounds: [string, Json, string][] = [
      [`r${round}`, { file_path: file }, FILE],
      [`e${round}`, { file_path: file, old_string: 'value1', new_string: 'valueA' }, 'updated'],
      [`b${round}`, { command: 'npm test' }, bash(round)],
    ];
    for (const [id, input, output] of rounds) {
      const name = id.startsWith('r') ? 'Read' : id.startsWith('e') ? 'Edit' : 'Bash';
      messages.push(
        { role: 'assistant', content: [{ type: 'tool_use', id, name, input }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: output }] },
      );
      chars += output.length + 120;
    }
  }
  return messages;
}

export function bigSessionBody(tokens: number, options: BigSessionOptions = {}): string {
  return anthropicBody(bigSessionMessages(tokens, options));
}

/** The newest message with a cache breakpoint on its last block. */
function withBreakpoint(message: Json): Json {
  const content = message.content as Json[];
  const last = content.at(-1) as Json;
  return {
    ...message,
    content: [...content.slice(0, -1), { ...last, cache_control: { type: 'ephemeral' } }],
  };
}

/**
 * The last `turns` requests of a ~`tokens`-token conversation, oldest first: each one is the
 * previous one's messages plus one assistant call and its result.
 */
export function bigSessionTurns(
  tokens: number,
  turns: number,
  options: BigSessionOptions = {},
): string[] {
  const messages = bigSessionMessages(tokens, options);
  const bodies: string[] = [];
  for (let turn = turns - 1; turn >= 0; turn--) {
    const sent = messages.slice(0, messages.length - 2 * turn);
    bodies.push(anthropicBody([...sent.slice(0, -1), withBreakpoint(sent.at(-1) as Json)]));
  }
  return bodies;
}
