import { fc, test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import { ConversationStore } from './conversationStore.js';
import { densifyRequest } from './densifyRequest.js';
import { POINTER_TEXT } from './test-utils/wireRequests.js';
import type { WireApi } from './wireHistory.js';

type Json = Record<string, unknown>;

type Op =
  | {
      readonly kind: 'read' | 'cat' | 'write' | 'grep';
      readonly path: string;
      readonly reuse: boolean;
    }
  | {
      readonly kind: 'edit';
      readonly path: string;
      readonly reuse: boolean;
      readonly fails: boolean;
    };

const PATH = fc.constantFrom('/w/a.ts', '/w/b.ts');
const OP: fc.Arbitrary<Op> = fc.oneof(
  {
    arbitrary: fc.record({
      kind: fc.constantFrom('read', 'read', 'cat', 'write', 'grep', 'grep'),
      path: PATH,
      reuse: fc.constantFrom(false, false, false, true),
    }),
    weight: 5,
  },
  {
    arbitrary: fc.record({
      kind: fc.constant('edit'),
      path: PATH,
      reuse: fc.boolean(),
      fails: fc.boolean(),
    }),
    weight: 1,
  },
);

/** One request: cut the history back (a rewind), maybe clear an earlier output, then append. */
interface Step {
  readonly keep: number | undefined;
  readonly clear: number | undefined;
  readonly append: readonly Op[];
  readonly pressureTokens: number;
}
/** A share of the history, on one step in five. */
const SOMETIMES: fc.Arbitrary<number | undefined> = fc.oneof(
  { arbitrary: fc.constant(undefined), weight: 4 },
  { arbitrary: fc.double({ min: 0, max: 1, noNaN: true }), weight: 1 },
);
const STEP: fc.Arbitrary<Step> = fc.record({
  keep: SOMETIMES,
  clear: SOMETIMES,
  append: fc.array(OP, { minLength: 1, maxLength: 2 }),
  pressureTokens: fc.constantFrom(0, 1_000_000),
});

/** The conversation as the client holds it: its ops and the outputs it cleared. */
interface Conversation {
  readonly ops: readonly Op[];
  readonly cleared: ReadonlySet<number>;
}

const PAD = 'x'.repeat(300);

/** A read's output is the file's version (successful writes before it), so re-reads repeat. */
function output(ops: readonly Op[], index: number): { text: string; error: boolean } {
  const op = ops[index] as Op;
  const version = ops
    .slice(0, index)
    .filter(
      (o) => o.path === op.path && (o.kind === 'write' || (o.kind === 'edit' && !o.fails)),
    ).length;
  switch (op.kind) {
    case 'read':
    case 'cat':
      return { text: `${op.path} version ${version}\n${PAD}`, error: false };
    case 'grep':
      return { text: `matches in ${op.path}\n${PAD}`, error: false };
    case 'write':
      return { text: 'File written.', error: false };
    case 'edit':
      return op.fails
        ? { text: 'Error: String to replace not found in file.', error: true }
        : { text: 'File updated.', error: false };
  }
}

function toolCall(op: Op): { name: string; args: Json } {
  switch (op.kind) {
    case 'read':
      return { name: 'Read', args: { file_path: op.path } };
    case 'cat':
      return { name: 'Bash', args: { command: `cat ${op.path}` } };
    case 'grep':
      return { name: 'Grep', args: { pattern: 'match', path: op.path } };
    case 'write':
      return { name: 'Write', args: { file_path: op.path, content: 'new' } };
    case 'edit':
      return { name: 'Edit', args: { file_path: op.path, old_string: 'a', new_string: 'b' } };
  }
}

function messages(api: WireApi, conversation: Conversation): Json[] {
  const { ops, cleared } = conversation;
  return ops.flatMap((op, index): Json[] => {
    const id = op.reuse ? 'call_1' : `t${index}`;
    const { name, args } = toolCall(op);
    const out = output(ops, index);
    const text = cleared.has(index) ? '[Old tool result content cleared]' : out.text;
    if (api === 'openai-chat') {
      const fn = { name, arguments: JSON.stringify(args) };
      return [
        { role: 'assistant', content: null, tool_calls: [{ id, type: 'function', function: fn }] },
        { role: 'tool', tool_call_id: id, content: text },
      ];
    }
    const result = { type: 'tool_result', tool_use_id: id, content: text };
    return [
      { role: 'assistant', content: [{ type: 'tool_use', id, name, input: args }] },
      { role: 'user', content: [out.error ? { ...result, is_error: true } : result] },
    ];
  });
}

function requestBody(api: WireApi, conversation: Conversation): string {
  const head = [{ role: 'user', content: 'work on a.ts and b.ts' }];
  return JSON.stringify({ model: 'm', messages: [...head, ...messages(api, conversation)] });
}

const REPLY =
  /^\[(?:unchanged since the read in|same output as) call ([^ \]]+) — that copy is still above\] \(original: `dense recall (r[0-9a-f]{10})`\)$/;

/** Calls and results of a sent request: id → count of calls, and each result's id and text. */
function readSent(api: WireApi, text: string) {
  const sent = (JSON.parse(text) as { messages: Json[] }).messages;
  const calls = new Map<string, number>();
  const results: { id: string; text: unknown }[] = [];
  for (const message of sent) {
    if (api === 'openai-chat') {
      for (const c of (message.tool_calls ?? []) as Json[])
        calls.set(String(c.id), (calls.get(String(c.id)) ?? 0) + 1);
      if (message.role === 'tool')
        results.push({ id: String(message.tool_call_id), text: message.content });
      continue;
    }
    if (!Array.isArray(message.content)) continue;
    for (const block of message.content as Json[]) {
      if (block.type === 'tool_use')
        calls.set(String(block.id), (calls.get(String(block.id)) ?? 0) + 1);
      if (block.type === 'tool_result')
        results.push({ id: String(block.tool_use_id), text: block.content });
    }
  }
  return { calls, results };
}

/** Checks one forwarded request; returns the number of replies in it. */
function checkSent(
  api: WireApi,
  input: { sent: string; body: string; originals: ReadonlyMap<string, string>; compacted: boolean },
): number {
  const { calls, results } = readSent(api, input.sent);
  let replies = 0;
  for (const result of results) {
    const match = typeof result.text === 'string' ? REPLY.exec(result.text) : null;
    if (match === null) continue;
    replies++;
    const [, named, recallId] = match as unknown as [string, string, string];
    const original = input.originals.get(recallId);
    expect(original, `recall ${recallId} kept`).toBeDefined();
    // The call named is one call, and its result is visible verbatim: the reply's own original.
    expect(calls.get(named), `${named} names one call`).toBe(1);
    const shown = results.filter((r) => r.id === named);
    expect(shown.map((r) => r.text)).toEqual([original]);
  }
  if (!input.compacted) {
    // Every reply and pointer put back gives the client's own bytes.
    const back = input.sent
      .replace(new RegExp(`"${REPLY.source.slice(1, -1)}"`, 'g'), (_, __, id: string) =>
        JSON.stringify(input.originals.get(id)),
      )
      .replace(new RegExp(`"${POINTER_TEXT.source}"`, 'g'), (_, id: string) =>
        JSON.stringify(input.originals.get(id)),
      );
    expect(back).toBe(input.body);
  }
  return replies;
}

function checkConversation(api: WireApi, steps: readonly Step[], budget: number | undefined) {
  const store = new ConversationStore();
  const originals = new Map<string, string>();
  let conversation: Conversation = { ops: [], cleared: new Set() };
  let replies = 0;
  steps.forEach((step, index) => {
    let ops = conversation.ops;
    if (step.keep !== undefined) ops = ops.slice(0, Math.floor(step.keep * ops.length));
    const cleared = new Set([...conversation.cleared].filter((i) => i < ops.length));
    if (step.clear !== undefined && ops.length > 0)
      cleared.add(Math.floor(step.clear * ops.length) % ops.length);
    conversation = { ops: [...ops, ...step.append], cleared };
    const body = requestBody(api, conversation);
    const result = densifyRequest({
      api,
      body: Buffer.from(body),
      sessionId: 'S',
      store,
      now: index * 1000,
      pressureTokens: step.pressureTokens,
      ...(budget === undefined ? {} : { workingBudget: { tokens: budget, longContext: false } }),
    });
    expect(result.unsupported).toBeUndefined();
    for (const recall of result.recalls) originals.set(recall.id, recall.text);
    const compacted = result.compaction !== undefined;
    replies += checkSent(api, { sent: result.body.toString(), body, originals, compacted });
    // One result per op: the decisions kept never outnumber the results of the last request.
    const decisions = store.get(result.conversationId ?? '', index * 1000).entryReplies;
    expect(decisions.size).toBeLessThanOrEqual(conversation.ops.length);
  });
  return replies;
}

describe('replies at entry follow what the request shows', () => {
  test.prop(
    [
      fc.constantFrom<WireApi>('openai-chat', 'anthropic'),
      fc.array(STEP, { minLength: 1, maxLength: 14 }),
      fc.constantFrom(undefined, undefined, 400, 1_000),
    ],
    { numRuns: 200 },
  )(
    '#24.1 reads, writes, outputs, clears and rewinds: every reply names a result visible verbatim in that request, and expanding replies gives back the client bytes',
    (api, steps, budget) => {
      checkConversation(api, steps, budget);
    },
  );
  test.prop(
    [
      fc.constantFrom<WireApi>('openai-chat', 'anthropic'),
      fc.array(
        fc.record({
          keep: fc.option(fc.double({ min: 0, max: 1, noNaN: true }), { nil: undefined }),
          clear: fc.constant(undefined),
          append: fc.array(OP, { minLength: 1, maxLength: 3 }),
          pressureTokens: fc.constantFrom(0, 1_000_000),
        }),
        { minLength: 2, maxLength: 12 },
      ),
    ],
    { numRuns: 60 },
  )(
    '#24.3 on rewinds half the time, the decisions kept never outnumber the results of the last request',
    (api, steps) => {
      // checkConversation asserts the bound after every request.
      checkConversation(api, steps, undefined);
    },
  );
  test('#24.3 a rewind prunes the decisions of the results it took back', () => {
    const read = { kind: 'read', path: '/w/a.ts', reuse: false } as const;
    const grep = { kind: 'grep', path: '/w/b.ts', reuse: false } as const;
    const steps: Step[] = [
      { keep: undefined, clear: undefined, append: [read, grep], pressureTokens: 0 },
      ...Array.from({ length: 6 }, () => ({
        keep: undefined,
        clear: undefined,
        append: [read, grep],
        pressureTokens: 0,
      })),
      { keep: 0, clear: undefined, append: [grep], pressureTokens: 0 },
    ];
    expect(checkConversation('anthropic', steps, undefined)).toBeGreaterThan(0);
  });
  test('#24.1 the generator reaches replies (the property is not vacuous)', () => {
    const read = { kind: 'read', path: '/w/a.ts', reuse: false } as const;
    const grep = { kind: 'grep', path: '/w/a.ts', reuse: false } as const;
    const step = (append: Op[]): Step => ({
      keep: undefined,
      clear: undefined,
      append,
      pressureTokens: 1_000_000,
    });
    expect(
      checkConversation('anthropic', [step([read, grep]), step([read]), step([grep])], undefined),
    ).toBe(3);
  });
});
