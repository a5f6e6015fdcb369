/**
 * A synthetic Claude-Code-like session that grows to a given number of history tokens: tasks of
 * rounds that read a source file (line-numbered, 40–400 lines), edit it, run the tests through Bash
 * (passing and failing runs, 10–150 lines), now and then grep the tree or re-read a file edited
 * before, one model call per round 15 s after the previous (inside Anthropic's 5-minute cache).
 * All text is generated from a seeded generator: deterministic, no recorded transcript text. Pure.
 */
import type { IContent } from '@dense/core';
import type { CountTokens } from '../../packages/core/src/test-utils/promptBlocks.js';
import type { ReplaySession } from './replayThroughProxy.js';
import { seededRandom } from '../../packages/core/src/test-utils/seededRandom.js';

/** Seconds between two model calls of the session. */
export const CALL_SPACING_MS = 15_000;
const T0 = Date.UTC(2026, 0, 5, 9);
const FILES = 48;

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
  'session',
  'tenant',
] as const;

interface Gen {
  readonly next: () => number;
  int(min: number, max: number): number;
  word(): string;
}

function gen(seed: number): Gen {
  const next = seededRandom(seed);
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  return { next, int, word: () => WORDS[int(0, WORDS.length - 1)] ?? 'value' };
}

const pascal = (word: string): string => word.charAt(0).toUpperCase() + word.slice(1);

function codeLine(g: Gen, line: number): string {
  const [a, b, c] = [g.word(), g.word(), g.word()];
  switch (g.int(0, 4)) {
    case 0:
      return `export function ${a}${pascal(b)}${line}(input: ${pascal(c)}Input): ${pascal(a)}Result {`;
    case 1:
      return `  const ${a}${pascal(b)} = await this.${c}Store.find({ id: input.${b}Id, limit: ${g.int(1, 500)} });`;
    case 2:
      return `  if (${a}.${b} > ${g.int(0, 9_999)}) throw new ${pascal(c)}Error('${a} ${b} out of range');`;
    case 3:
      return `  return { ${a}: ${b}.${c}, ${c}At: Date.now() - ${g.int(0, 60_000)} };`;
    default:
      return '}';
  }
}

/** Claude Code's Read output: `cat -n` numbering. */
function readOutput(g: Gen, lines: number): string {
  return Array.from(
    { length: lines },
    (_, i) => `${String(i + 1).padStart(6)}\t${codeLine(g, i)}`,
  ).join('\n');
}

function testOutput(g: Gen, file: string, lines: number, failing: boolean): string {
  const out = [`> vitest run ${file.replace(/\.ts$/, '.test.ts')}`, ''];
  for (let i = 0; i < lines; i++) {
    const ok = !failing || i % 7 !== 3;
    out.push(`  ${ok ? '✓' : '×'} ${g.word()} ${g.word()} case ${i} (${g.int(1, 400)} ms)`);
    if (!ok) out.push(`    AssertionError: expected ${g.int(0, 999)} to be ${g.int(0, 999)}`);
  }
  out.push('', ` Tests  ${failing ? 'failed' : 'passed'} (${lines})`);
  return out.join('\n');
}

function grepOutput(g: Gen, lines: number): string {
  return Array.from(
    { length: lines },
    () =>
      `src/${g.word()}/${g.word()}.ts:${g.int(1, 400)}:  const ${g.word()} = ${g.word()}(${g.word()});`,
  ).join('\n');
}

interface Builder {
  readonly entries: IContent[];
  readonly g: Gen;
  calls: number;
  tokens: number;
  readonly count: CountTokens;
}

function call(b: Builder, name: string, parameters: Record<string, unknown>, output: string): void {
  const id = `toolu_${String(b.calls).padStart(5, '0')}`;
  const text = `Next: ${name} ${Object.values(parameters).map(String).join(' ').slice(0, 60)}`;
  b.entries.push({
    speaker: 'ai',
    blocks: [
      { type: 'text', text },
      { type: 'tool_call', id, name, parameters },
    ],
    metadata: { timestamp: T0 + b.calls * CALL_SPACING_MS },
  });
  b.entries.push({
    speaker: 'tool',
    blocks: [{ type: 'tool_response', callId: id, toolName: name, result: output }],
  });
  b.calls++;
  b.tokens += b.count(text) + b.count(JSON.stringify(parameters)) + b.count(output);
}

function round(b: Builder, edited: string[]): void {
  const { g } = b;
  const file = `/work/app/src/${g.word()}/${g.word()}${g.int(0, FILES)}.ts`;
  call(b, 'read_file', { file_path: file }, readOutput(g, g.int(40, 400)));
  const old = codeLine(g, 1);
  const update = `The file ${file} has been updated. Here's the result of running \`cat -n\` on a snippet of the edited file:\n${readOutput(g, g.int(6, 14))}`;
  call(
    b,
    'replace',
    { file_path: file, old_string: old, new_string: `${old} // ${g.word()}` },
    update,
  );
  edited.push(file);
  const failing = g.next() < 0.35;
  call(
    b,
    'run_shell_command',
    { command: `npx vitest run ${file}` },
    testOutput(g, file, g.int(10, 150), failing),
  );
  if (g.next() < 0.3)
    call(b, 'grep', { pattern: g.word(), path: 'src' }, grepOutput(g, g.int(5, 60)));
  const earlier = edited[g.int(0, edited.length - 1)];
  if (g.next() < 0.25 && earlier !== undefined) {
    call(b, 'read_file', { file_path: earlier }, readOutput(g, g.int(40, 400)));
  }
}

/**
 * A session whose history (tool calls, results and the model's text, in `count` tokens) reaches
 * at least `historyTokens`, ending with the model's final answer. Same `seed`, same session.
 */
export function growingSession(input: {
  readonly historyTokens: number;
  readonly count: CountTokens;
  readonly seed?: number;
}): ReplaySession {
  const b: Builder = {
    entries: [],
    g: gen(input.seed ?? 24),
    calls: 0,
    tokens: 0,
    count: input.count,
  };
  const edited: string[] = [];
  while (b.tokens < input.historyTokens) {
    const task = `Task ${b.calls}: make the ${b.g.word()} ${b.g.word()} handling pass its tests.`;
    b.entries.push({ speaker: 'human', blocks: [{ type: 'text', text: task }] });
    b.tokens += input.count(task);
    for (let i = b.g.int(3, 8); i > 0 && b.tokens < input.historyTokens; i--) round(b, edited);
  }
  b.entries.push({
    speaker: 'ai',
    blocks: [{ type: 'text', text: 'Done: every task passes its tests.' }],
    metadata: { timestamp: T0 + b.calls * CALL_SPACING_MS },
  });
  return { contents: b.entries, model: 'claude-sonnet-4-6' };
}
