/**
 * A synthetic Claude Code conversation for the gateway bench, growing by about `turnTokens` tokens
 * (characters / 4) per request: each request adds one assistant message with two parallel tool
 * calls and the user message with their results. Most turns read a new source file and run a
 * command (Bash output); every fourth turn edits a file read before and reads it again (the
 * earlier read goes stale, so density has decisions to keep). The newest message carries Claude
 * Code's cache breakpoint on its last block, the system prompt its own. All text comes from a
 * seeded generator (invented identifiers, no recorded transcript). The history is kept serialized:
 * a request costs one copy of its bytes, not a stringify of the whole history.
 */
import { seededRandom } from '../../packages/core/src/test-utils/seededRandom.js';

type Json = Record<string, unknown>;

export const BENCH_MODEL = 'claude-sonnet-4-6';

const WORDS = [
  'order',
  'invoice',
  'ledger',
  'cursor',
  'token',
  'route',
  'cache',
  'queue',
  'batch',
  'retry',
  'limit',
  'schema',
  'record',
  'window',
  'budget',
  'payload',
  'header',
  'stream',
  'tenant',
  'shard',
] as const;

const SYSTEM = [
  {
    type: 'text',
    text: 'You are a coding agent working in a TypeScript repository. Use the tools to read, edit and test code. '.repeat(
      40,
    ),
    cache_control: { type: 'ephemeral' },
  },
];

const TOOLS = ['Read', 'Edit', 'Bash', 'Grep', 'TodoWrite'].map((name) => ({
  name,
  description: `${name}: ${'a tool of the coding agent, described at length as real clients do. '.repeat(20)}`,
  input_schema: { type: 'object', properties: { arg: { type: 'string' } } },
}));

const HEAD = Buffer.from(`{"model":"${BENCH_MODEL}","messages":[`);
/** What follows the messages in every request (constant for a conversation). */
const TAIL = `,${JSON.stringify({ system: SYSTEM, tools: TOOLS, max_tokens: 32_000, stream: false }).slice(1)}`;

export interface SyntheticConversationOptions {
  readonly seed: number;
  readonly sessionId: string;
  /** Tokens (characters / 4) each request adds, on average. */
  readonly turnTokens: number;
}

export class SyntheticConversation {
  readonly sessionId: string;
  private readonly random: () => number;
  private readonly turnChars: number;
  /** The serialized messages before the newest one, each followed by a comma. */
  private readonly stable: Buffer[] = [];
  /** The newest message (sent with the breakpoint on its last block). */
  private newest: Json;
  private readonly files: string[] = [];
  /** Requests built so far. */
  turns = 0;
  /** The last body's length in bytes. */
  bytes = 0;

  constructor(options: SyntheticConversationOptions) {
    this.sessionId = options.sessionId;
    this.random = seededRandom(options.seed);
    this.turnChars = options.turnTokens * 4;
    this.newest = {
      role: 'user',
      content: [
        {
          type: 'text',
          text: `Task ${options.seed}: make every ${this.word()} module validate its ${this.word()} input, then run the tests.`,
        },
      ],
    };
  }

  /** The next request's body: the first one is the task alone; each later one adds a turn. */
  next(): Buffer {
    if (this.turns > 0) this.addTurn();
    this.turns++;
    const body = Buffer.concat([
      HEAD,
      ...this.stable,
      Buffer.from(`${JSON.stringify(withBreakpoint(this.newest))}]${TAIL}`),
    ]);
    this.bytes = body.length;
    return body;
  }

  private int(min: number, max: number): number {
    return min + Math.floor(this.random() * (max - min + 1));
  }

  private word(): string {
    return WORDS[this.int(0, WORDS.length - 1)] ?? 'value';
  }

  /** A Read result of about `chars` characters, line-numbered as Claude Code shows files. */
  private fileText(chars: number, seedLine: number): string {
    const lines: string[] = [];
    let length = 0;
    for (let n = 1; length < chars; n++) {
      const [a, b, c] = [this.word(), this.word(), this.word()];
      const code =
        n % 7 === 0
          ? `export function ${a}${seedLine}_${n}(input: ${b}): ${c} {`
          : `  const ${a}${n} = ${b}.${c}(${a}, ${n + seedLine});`;
      const line = `${String(n).padStart(6)}→${code}`;
      lines.push(line);
      length += line.length + 1;
    }
    return lines.join('\n');
  }

  private bashText(chars: number): string {
    const lines: string[] = [];
    let length = 0;
    for (let n = 0; length < chars; n++) {
      const line =
        n % 9 === 8
          ? `  ✗ ${this.word()} ${this.word()} rejects an empty ${this.word()} (${this.int(2, 90)} ms)`
          : `  ✓ ${this.word()} ${this.word()} keeps the ${this.word()} (${this.int(1, 40)} ms)`;
      lines.push(line);
      length += line.length + 1;
    }
    return lines.join('\n');
  }

  private addTurn(): void {
    const turn = this.turns;
    const size = (share: number) =>
      Math.round(this.turnChars * share * (0.7 + 0.6 * this.random()));
    let calls: [string, string, Json, string][];
    const earlier = this.files[this.int(0, Math.max(0, this.files.length - 1))];
    if (turn % 4 === 0 && earlier !== undefined) {
      const wanted = `${this.word()}${turn}`;
      calls = [
        [
          `toolu_e${turn}`,
          'Edit',
          { file_path: earlier, old_string: `${this.word()}1`, new_string: wanted },
          `The file ${earlier} has been updated.`,
        ],
        [`toolu_r${turn}`, 'Read', { file_path: earlier }, this.fileText(size(0.95), turn)],
      ];
    } else {
      const file = `/work/app/src/${this.word()}/${this.word()}${turn}.ts`;
      this.files.push(file);
      calls = [
        [`toolu_r${turn}`, 'Read', { file_path: file }, this.fileText(size(0.7), turn)],
        [
          `toolu_b${turn}`,
          'Bash',
          { command: `npm test -- ${this.word()}`, description: 'Run the tests' },
          this.bashText(size(0.3)),
        ],
      ];
    }
    const assistant: Json = {
      role: 'assistant',
      content: [
        { type: 'text', text: `Next I look at the ${this.word()} code.` },
        ...calls.map(([id, name, input]) => ({ type: 'tool_use', id, name, input })),
      ],
    };
    const results: Json = {
      role: 'user',
      content: calls.map(([id, , , content]) => ({
        type: 'tool_result',
        tool_use_id: id,
        content,
      })),
    };
    this.stable.push(Buffer.from(`${JSON.stringify(this.newest)},${JSON.stringify(assistant)},`));
    this.newest = results;
  }
}

function withBreakpoint(message: Json): Json {
  const content = message.content as Json[];
  const last = content.at(-1) as Json;
  return {
    ...message,
    content: [...content.slice(0, -1), { ...last, cache_control: { type: 'ephemeral' } }],
  };
}
