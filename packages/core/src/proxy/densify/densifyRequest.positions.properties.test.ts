import { fc, test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import { ConversationStore } from '../decide/conversationStore.js';
import { densifyRequest } from './densifyRequest.js';
import { POINTER_TEXT } from '../test-utils/wireRequests.js';
import type { WireApi } from '../wire/wireHistory.js';

type Json = Record<string, unknown>;

type Op =
  | { readonly kind: 'read' | 'cat' | 'write'; readonly path: string; readonly id: string }
  | { readonly kind: 'edit'; readonly path: string; readonly id: string; readonly fails: boolean };

const PATH = fc.constantFrom('/w/a.ts', '/w/b.ts');
/** Few ids, so most calls reuse one. */
const ID = fc.constantFrom('call_1', 'call_1', 'call_2');
const OP: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constantFrom('read', 'cat', 'write'), path: PATH, id: ID }),
  fc.record({ kind: fc.constant('edit'), path: PATH, id: ID, fails: fc.boolean() }),
);

/** One request of the conversation: first cut the history back (a rewind), then append. */
interface Step {
  readonly keep: number | undefined;
  readonly append: readonly Op[];
  readonly gapMs: number;
  readonly pressureTokens: number;
}
const STEP: fc.Arbitrary<Step> = fc.record({
  keep: fc.option(fc.double({ min: 0, max: 1, noNaN: true }), { nil: undefined }),
  append: fc.array(OP, { minLength: 1, maxLength: 4 }),
  gapMs: fc.constantFrom(1_000, 10 * 60_000),
  pressureTokens: fc.constantFrom(0, 1_000_000),
});

/** The tool call and its output for one op (reads differ by position, so each is distinct). */
function call(op: Op, index: number): { name: string; args: Json; output: string; error: boolean } {
  const content = `${op.path} as read at step ${index}\n${'x'.repeat(200)}`;
  switch (op.kind) {
    case 'read':
      return { name: 'Read', args: { file_path: op.path }, output: content, error: false };
    case 'cat':
      return { name: 'Bash', args: { command: `cat ${op.path}` }, output: content, error: false };
    case 'write':
      return {
        name: 'Write',
        args: { file_path: op.path, content: 'new' },
        output: 'File written.',
        error: false,
      };
    case 'edit':
      return {
        name: 'Edit',
        args: { file_path: op.path, old_string: 'a', new_string: 'b' },
        output: op.fails ? 'Error: String to replace not found in file.' : 'File updated.',
        error: op.fails,
      };
  }
}

function messages(api: WireApi, ops: readonly Op[]): Json[] {
  return ops.flatMap((op, index): Json[] => {
    const { name, args, output, error } = call(op, index);
    if (api === 'openai-chat') {
      return [
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            { id: op.id, type: 'function', function: { name, arguments: JSON.stringify(args) } },
          ],
        },
        { role: 'tool', tool_call_id: op.id, content: output },
      ];
    }
    return [
      { role: 'assistant', content: [{ type: 'tool_use', id: op.id, name, input: args }] },
      {
        role: 'user',
        content: [
          {
            type: 'tool_result',
            tool_use_id: op.id,
            content: output,
            ...(error ? { is_error: true } : {}),
          },
        ],
      },
    ];
  });
}

function requestBody(api: WireApi, ops: readonly Op[]): string {
  const head = [{ role: 'user', content: 'work on a.ts and b.ts' }];
  return JSON.stringify({ model: 'm', messages: [...head, ...messages(api, ops)] });
}

/** Written separately from density: a read is stale when a later successful write hits its file. */
function isStale(ops: readonly Op[], index: number): boolean {
  const op = ops[index];
  if (op === undefined || (op.kind !== 'read' && op.kind !== 'cat')) return false;
  return ops
    .slice(index + 1)
    .some(
      (later) =>
        later.path === op.path &&
        (later.kind === 'write' || (later.kind === 'edit' && !later.fails)),
    );
}

const isPointerText = (content: unknown): boolean =>
  typeof content === 'string' && new RegExp(`^${POINTER_TEXT.source}$`).test(content);

const isPointer = (message: unknown): boolean => {
  const content = (message as { content?: unknown }).content;
  return (
    isPointerText(content) ||
    (Array.isArray(content) &&
      (content as { content?: unknown }[]).some((block) => isPointerText(block.content)))
  );
};

function checkConversation(api: WireApi, steps: readonly Step[]): number {
  const store = new ConversationStore();
  let ops: Op[] = [];
  let now = 0;
  let pointers = 0;
  for (const step of steps) {
    if (step.keep !== undefined) ops = ops.slice(0, Math.floor(step.keep * ops.length));
    ops = [...ops, ...step.append];
    now += step.gapMs;
    const body = requestBody(api, ops);
    const result = densifyRequest({
      api,
      body: Buffer.from(body),
      sessionId: 'S',
      store,
      now,
      pressureTokens: step.pressureTokens,
    });
    expect(result.unsupported).toBeUndefined();
    const original = (JSON.parse(body) as { messages: unknown[] }).messages;
    const sent = (JSON.parse(result.body.toString()) as { messages: unknown[] }).messages;
    expect(sent.length).toBe(original.length);
    sent.forEach((message, index) => {
      if (!isPointer(message)) {
        expect(message).toEqual(original[index]);
        return;
      }
      // messages: the user's, then a call and its result per op.
      const opIndex = (index - 2) / 2;
      expect(isStale(ops, opIndex), `pointer on op ${opIndex} of ${JSON.stringify(ops)}`).toBe(
        true,
      );
      pointers++;
    });
  }
  return pointers;
}

describe('proxy pointers follow positions in the request as sent', () => {
  test.prop(
    [
      fc.constantFrom<WireApi>('openai-chat', 'anthropic'),
      fc.array(STEP, { minLength: 1, maxLength: 6 }),
    ],
    {
      numRuns: 150,
    },
  )(
    '#22.1 reused call ids and rewinds: every pointer replaces a stale read, no live read is replaced',
    (api, steps) => {
      checkConversation(api, steps);
    },
  );

  test('#22.1 the generator reaches pointers (the property is not vacuous)', () => {
    const read = { kind: 'read', path: '/w/a.ts', id: 'call_1' } as const;
    const edit = { kind: 'edit', path: '/w/a.ts', id: 'call_1', fails: false } as const;
    const steps: Step[] = [
      { keep: undefined, append: [read, edit, read], gapMs: 1_000, pressureTokens: 0 },
      { keep: 0.34, append: [read], gapMs: 1_000, pressureTokens: 0 },
    ];
    expect(checkConversation('openai-chat', steps)).toBe(1);
  });
});
