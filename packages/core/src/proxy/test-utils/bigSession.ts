/**
 * A Claude Code-shaped Anthropic request of about `tokens` tokens (chars / 4): rounds of Read a
 * 4 KB file, Edit it, Bash output, for the proxy's benchmarks.
 */
import { anthropicBody } from './wireRequests.js';

type Json = Record<string, unknown>;

const FILE = Array.from(
  { length: 80 },
  (_, i) => `${i + 1}\tconst value${i} = compute(${i});`,
).join('\n');

export function bigSessionBody(tokens: number): string {
  const messages: Json[] = [{ role: 'user', content: [{ type: 'text', text: 'refactor' }] }];
  let chars = 0;
  for (let round = 0; chars < tokens * 4; round++) {
    const file = `/w/src/file${round % 40}.ts`;
    const rounds: [string, Json, string][] = [
      [`r${round}`, { file_path: file }, FILE],
      [`e${round}`, { file_path: file, old_string: 'value1', new_string: 'valueA' }, 'updated'],
      [`b${round}`, { command: 'npm test' }, `ok ${round}\n`.repeat(40)],
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
  return anthropicBody(messages);
}
