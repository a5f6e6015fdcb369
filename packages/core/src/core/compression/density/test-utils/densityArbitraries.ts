/**
 * fast-check generators of random but realistic agent histories for the density properties:
 * file reads and writes (some failed, some unanswered), shell commands, searches, `@` inclusions
 * (with and without the referenced-files header), multi-call AI entries, parallel responses in
 * one tool entry, responses separated from their calls, thinking blocks and malformed parameters.
 */
import fc from 'fast-check';
import { formatFileInclusions } from '../../densityVocabulary.js';
import type { DensityConfig } from '../../types.js';
import {
  textBlock,
  toolCallBlock,
  toolResponseBlock,
  type ContentBlock,
  type IContent,
} from '../../../../services/history/IContent.js';

export const TEST_ROOT = '/workspace';

/** Spellings that resolve to the same file, a case variant, other files and one outside the root. */
export const TEST_PATHS = [
  'src/a.ts',
  './src/a.ts',
  '/workspace/src/a.ts',
  'src/A.ts',
  'src/b.ts',
  'docs/c.md',
  '../outside.ts',
] as const;

export interface CallOp {
  readonly tool: string;
  readonly parameters: unknown;
  readonly result: string;
  readonly error?: string;
  /** false: the call has no response (yet). */
  readonly respond: boolean;
}

export type HistoryOp =
  | {
      readonly kind: 'human';
      readonly text: string;
      readonly files: readonly FileOp[];
      readonly header: boolean;
    }
  | { readonly kind: 'ai'; readonly text: string; readonly thinking: boolean }
  | {
      readonly kind: 'calls';
      readonly calls: readonly CallOp[];
      readonly text: string | undefined;
      readonly layout: 'together' | 'split' | 'delayed';
    };

interface FileOp {
  readonly path: string;
  readonly content: string;
}

const pathArb = fc.constantFrom(...TEST_PATHS);
const wordsArb = fc.constantFrom('fix the bug', 'look at this', 'why?', 'done', '', '  ');
const contentArb = fc
  .array(
    fc.constantFrom(
      'export const answer = computeTheAnswer(input);',
      'export {};',
      '',
      'return value ?? fallbackValue;',
      '--- not a marker',
    ),
    { maxLength: 6 },
  )
  .map((lines) => lines.join('\n'));

const fileParamsArb = fc
  .tuple(pathArb, fc.constantFrom('file_path', 'absolute_path', 'path'))
  .map(([p, key]) => ({ [key]: p }));

/** Parameters no file can be read from: never pruned, never a crash. */
export const malformedParamsArb = fc.constantFrom<unknown>(
  null,
  undefined,
  'src/a.ts',
  42,
  [],
  ['src/a.ts'],
  {},
  { file_path: 42 },
  { file_path: '' },
  { file_path: null, path: 'src/a.ts' },
  { paths: 'src/a.ts' },
  { paths: [] },
);

const errorArb = fc.option(fc.constantFrom('File not found', 'old_string not found', ''), {
  nil: undefined,
  freq: 4,
});

function callArb(
  tool: fc.Arbitrary<string>,
  params: fc.Arbitrary<unknown>,
  result: fc.Arbitrary<string>,
): fc.Arbitrary<CallOp> {
  return fc
    .record({ tool, parameters: params, result, error: errorArb, roll: fc.nat({ max: 9 }) })
    .map(({ roll, error, ...rest }): CallOp => ({
      ...rest,
      respond: roll !== 0, // one call in ten is still unanswered
      ...(error === undefined ? {} : { error }),
    }));
}

const readArb = callArb(
  fc.constantFrom('read_file', 'read_line_range', 'ast_read_file'),
  fc.oneof({ weight: 5, arbitrary: fileParamsArb }, { weight: 1, arbitrary: malformedParamsArb }),
  contentArb,
);
const readManyArb = callArb(
  fc.constant('read_many_files'),
  fc.oneof(
    fc.array(pathArb, { minLength: 1, maxLength: 3 }).map((paths) => ({ paths })),
    fc.constant({ paths: ['src/*.ts'] }),
    fc.constant({ paths: ['src/a.ts', 'docs/**'] }),
    malformedParamsArb,
  ),
  fc
    .array(fc.record({ path: pathArb, content: contentArb }), { maxLength: 2 })
    .map(formatFileInclusions),
);
const writeArb = callArb(
  fc.constantFrom('write_file', 'replace', 'ast_edit', 'insert_at_line', 'delete_line_range'),
  fc.oneof({ weight: 5, arbitrary: fileParamsArb }, { weight: 1, arbitrary: malformedParamsArb }),
  fc.constantFrom('Successfully modified file.', 'ok'),
);
const shellArb = callArb(
  fc.constant('run_shell_command'),
  fc.constantFrom<unknown>(
    { command: 'npm test' },
    { command: 'cat src/a.ts' },
    { command: "sed -n '1,40p' ./src/b.ts" },
    { command: "sed -i 's/a/b/' src/a.ts" },
    { command: "cat > src/b.ts <<'EOF'\nexport {};\nEOF" },
    { command: 'cat src/a.ts | grep x' },
    { command: 'ls' },
    'npm test',
  ),
  fc.constantFrom(
    'Output: Test Files 3 passed (3)\nTests 42 passed (42)\nExit Code: 0',
    'Output: FAIL src/a.test.ts > adds numbers\nTests 1 failed | 41 passed (42)\nExit Code: 1',
    '',
  ),
);
const otherArb = callArb(
  fc.constantFrom('grep', 'list_directory', 'web_fetch'),
  fc.constantFrom({ pattern: 'TODO' }, { path: 'src' }, { url: 'https://example.com' }, null),
  fc.constantFrom(
    'Found 2 matches for pattern "TODO"\nsrc/a.ts:1: // TODO: handle the empty case\nsrc/b.ts:9: TODO',
    'a.ts\nb.ts',
    'page',
  ),
);

export const callOpArb: fc.Arbitrary<CallOp> = fc.oneof(
  { weight: 4, arbitrary: readArb },
  { weight: 1, arbitrary: readManyArb },
  { weight: 3, arbitrary: writeArb },
  { weight: 2, arbitrary: shellArb },
  { weight: 1, arbitrary: otherArb },
);

export const historyOpArb: fc.Arbitrary<HistoryOp> = fc.oneof(
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('human' as const),
      text: wordsArb,
      files: fc.array(fc.record({ path: pathArb, content: contentArb }), { maxLength: 3 }),
      header: fc.boolean(),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('ai' as const),
      text: wordsArb,
      thinking: fc.boolean(),
    }),
  },
  {
    weight: 5,
    arbitrary: fc.record({
      kind: fc.constant('calls' as const),
      calls: fc.array(callOpArb, { minLength: 1, maxLength: 3 }),
      text: fc.option(wordsArb, { nil: undefined }),
      layout: fc.constantFrom('together' as const, 'split' as const, 'delayed' as const),
    }),
  },
);

function humanText(op: Extract<HistoryOp, { kind: 'human' }>): string {
  if (op.files.length === 0) return op.text;
  const header = op.header ? '--- Content from referenced files ---\n' : '';
  return `${op.text}\n${header}${formatFileInclusions(op.files)}\n`;
}

/** Turns ops into entries; call ids are unique (`c0`, `c1`, … with the default prefix). */
export function buildHistory(ops: readonly HistoryOp[], idPrefix = 'c'): IContent[] {
  const history: IContent[] = [];
  let nextId = 0;
  for (const op of ops) {
    if (op.kind === 'human') {
      history.push({ speaker: 'human', blocks: [textBlock(humanText(op))] });
    } else if (op.kind === 'ai') {
      const blocks: ContentBlock[] = op.thinking ? [{ type: 'thinking', thought: 'hmm' }] : [];
      history.push({ speaker: 'ai', blocks: [...blocks, textBlock(op.text)] });
    } else {
      const ids = op.calls.map(() => `${idPrefix}${nextId++}`);
      const blocks: ContentBlock[] = op.text === undefined ? [] : [textBlock(op.text)];
      op.calls.forEach((call, i) =>
        blocks.push(toolCallBlock(ids[i] as string, call.tool, call.parameters)),
      );
      history.push({ speaker: 'ai', blocks });
      const responses = op.calls.flatMap((call, i) =>
        call.respond
          ? [
              toolResponseBlock({
                callId: ids[i] as string,
                toolName: call.tool,
                result: call.result,
                ...(call.error === undefined ? {} : { error: call.error }),
              }),
            ]
          : [],
      );
      if (responses.length === 0) continue;
      if (op.layout === 'delayed') history.push({ speaker: 'ai', blocks: [textBlock('working…')] });
      if (op.layout === 'split') {
        for (const block of responses) history.push({ speaker: 'tool', blocks: [block] });
      } else {
        history.push({ speaker: 'tool', blocks: responses });
      }
    }
  }
  return history;
}

/** Turns that can never make earlier content stale: chat, reads, shell, searches; no writes, no `@`. */
export const quietOpArb: fc.Arbitrary<HistoryOp> = fc.oneof(
  fc.record({ kind: fc.constant('ai' as const), text: wordsArb, thinking: fc.boolean() }),
  fc.record({
    kind: fc.constant('human' as const),
    text: wordsArb,
    files: fc.constant([]),
    header: fc.constant(false),
  }),
  fc.record({
    kind: fc.constant('calls' as const),
    calls: fc.array(fc.oneof(readArb, readManyArb, shellArb, otherArb), {
      minLength: 1,
      maxLength: 3,
    }),
    text: fc.option(wordsArb, { nil: undefined }),
    layout: fc.constantFrom('together' as const, 'split' as const, 'delayed' as const),
  }),
);

export const historyArb: fc.Arbitrary<IContent[]> = fc
  .array(historyOpArb, { maxLength: 40, size: 'medium' })
  .map(buildHistory);

export const densityConfigArb: fc.Arbitrary<DensityConfig> = fc.record({
  readWritePruning: fc.boolean(),
  fileDedupe: fc.boolean(),
  recencyPruning: fc.boolean(),
  recencyRetention: fc.integer({ min: -2, max: 4 }),
  workspaceRoot: fc.constant(TEST_ROOT),
  shellFileOps: fc.boolean(),
});
