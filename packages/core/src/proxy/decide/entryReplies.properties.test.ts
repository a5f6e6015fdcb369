import { fc, test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import { ConversationStore } from './conversationStore.js';
import { densifyRequest } from '../densify/densifyRequest.js';
import { expandRepeatedLines } from '../../core/compression/density/entry/repeatedLinesText.js';
import { POINTER_TEXT } from '../test-utils/wireRequests.js';
import type { WireApi } from '../wire/wireHistory.js';

type Json = Record<string, unknown>;

type Op =
  | {
      readonly kind: 'read' | 'cat' | 'write' | 'grep' | 'test';
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
      kind: fc.constantFrom('read', 'read', 'cat', 'write', 'grep', 'grep', 'test', 'test'),
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

/** A step that appends `append` under enough pressure for every reply to pay. */
const pressed = (append: Op[]): Step => ({
  keep: undefined,
  clear: undefined,
  append,
  pressureTokens: 1_000_000,
});

const PAD = 'x'.repeat(300);

const changes = (op: Op): boolean => op.kind === 'write' || (op.kind === 'edit' && !op.fails);

/** A test run after `changes` changes to the files: most of its lines repeat the run before. */
function testOutput(changes: number): string {
  const cases = Array.from({ length: 12 }, (_, i) =>
    i === changes % 12
      ? `  ✗ case ${i} of the parser suite fails after change ${changes}`
      : `  ✓ case ${i} of the parser suite passes quickly`,
  );
  return ['> npm test', ...cases, `11 passed, 1 failed (run after ${changes} changes)`].join('\n');
}

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
    case 'test':
      return { text: testOutput(ops.slice(0, index).filter(changes).length), error: false };
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
    case 'test':
      return { name: 'Bash', args: { command: 'npm test' } };
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

/** A repeated-lines reply: the CLI's reply, then its recall id on a line of its own. */
const LINES_REPLY = /\n\(original: `dense recall (r[0-9a-f]{10})`\)$/;
/** The same as a JSON string in a request body. */
const LINES_REPLY_JSON = /"(?:[^"\\]|\\.)*\\n\(original: `dense recall (r[0-9a-f]{10})`\)"/g;

const isReply = (text: unknown): boolean =>
  typeof text === 'string' && (REPLY.test(text) || LINES_REPLY.test(text));

/** Checks a repeated-lines reply: each text it names is one call's result, visible verbatim. */
function checkLinesReply(
  sent: ReturnType<typeof readSent>,
  input: { readonly text: string; readonly recallId: string; readonly original: string },
): void {
  const { calls, results } = sent;
  const cliText = input.text.slice(0, input.text.length - LINES_REPLY.exec(input.text)![0].length);
  const expanded = expandRepeatedLines(cliText, (ref) => {
    expect(ref.parameter, 'names an output').toBeUndefined();
    expect(calls.get(ref.callId), `${ref.callId} names one call`).toBe(1);
    const shown = results.filter((r) => r.id === ref.callId).map((r) => r.text);
    expect(shown).toHaveLength(1);
    const [text] = shown;
    // The client's own text: no reply and no pointer.
    expect(typeof text === 'string' && !isReply(text) && !POINTER_TEXT.test(text)).toBe(true);
    return text as string;
  });
  expect(expanded, `reply with recall ${input.recallId} expands to its original`).toBe(
    input.original,
  );
}

/** Checks one forwarded request; returns the number of replies in it, and of repeated-lines ones. */
function checkSent(
  api: WireApi,
  input: { sent: string; body: string; originals: ReadonlyMap<string, string>; compacted: boolean },
): { readonly replies: number; readonly lines: number } {
  const sent = readSent(api, input.sent);
  const { calls, results } = sent;
  let replies = 0;
  let linesReplies = 0;
  for (const result of results) {
    if (typeof result.text !== 'string') continue;
    const lines = LINES_REPLY.exec(result.text);
    const match = REPLY.exec(result.text);
    if (match === null && lines === null) continue;
    replies++;
    const recallId = (lines ?? match)![lines === null ? 2 : 1] as string;
    const original = input.originals.get(recallId);
    expect(original, `recall ${recallId} kept`).toBeDefined();
    if (lines !== null) {
      checkLinesReply(sent, { text: result.text, recallId, original: original as string });
      linesReplies++;
      continue;
    }
    const named = (match as RegExpExecArray)[1] as string;
    // The call named is one call, and its result is visible verbatim: the reply's own original.
    expect(calls.get(named), `${named} names one call`).toBe(1);
    const shown = results.filter((r) => r.id === named);
    expect(shown.map((r) => r.text)).toEqual([original]);
  }
  if (!input.compacted) {
    // Every reply and pointer put back gives the client's own bytes.
    const back = input.sent
      .replace(LINES_REPLY_JSON, (_, id: string) => JSON.stringify(input.originals.get(id)))
      .replace(new RegExp(`"${REPLY.source.slice(1, -1)}"`, 'g'), (_, __, id: string) =>
        JSON.stringify(input.originals.get(id)),
      )
      .replace(new RegExp(`"${POINTER_TEXT.source}"`, 'g'), (_, id: string) =>
        JSON.stringify(input.originals.get(id)),
      );
    expect(back).toBe(input.body);
  }
  return { replies, lines: linesReplies };
}

/**
 * Checks that each result (by its place and the client's text) goes out as it went out before,
 * or once a reply, as the original (or a pointer); `shown` holds what each went out as.
 */
function checkSticky(
  api: WireApi,
  input: { readonly sent: string; readonly body: string; readonly shown: Map<string, unknown> },
): void {
  const client = readSent(api, input.body).results;
  const sent = readSent(api, input.sent).results;
  client.forEach((result, k) => {
    const key = `${k}:${String(result.text)}`;
    const now = sent[k]?.text;
    const before = input.shown.get(key);
    if (before !== undefined && isReply(now)) expect(now, `result ${k} stays as sent`).toBe(before);
    input.shown.set(key, now);
  });
}

function checkConversation(api: WireApi, steps: readonly Step[], budget: number | undefined) {
  const store = new ConversationStore();
  const originals = new Map<string, string>();
  let conversation: Conversation = { ops: [], cleared: new Set() };
  const count = { replies: 0, lines: 0 };
  const shown = new Map<string, unknown>();
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
      repeatedLinesReplies: true,
      ...(budget === undefined ? {} : { workingBudget: { tokens: budget, longContext: false } }),
    });
    expect(result.unsupported).toBeUndefined();
    for (const recall of result.recalls) originals.set(recall.id, recall.text);
    const compacted = result.compaction !== undefined;
    const sent = result.body.toString();
    const checked = checkSent(api, { sent, body, originals, compacted });
    count.replies += checked.replies;
    count.lines += checked.lines;
    if (step.keep !== undefined)
      for (const key of shown.keys())
        if (Number(key.split(':')[0]) >= ops.length) shown.delete(key);
    if (!compacted) checkSticky(api, { sent, body, shown });
    // One result per op: the decisions kept never outnumber the results of the last request.
    const decisions = store.get(result.conversationId ?? '', index * 1000).entryReplies;
    expect(decisions.size).toBeLessThanOrEqual(conversation.ops.length);
  });
  return count;
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
    '#24.1 reads, writes, outputs, test runs, clears and rewinds: every reply (same output or repeated lines) names results visible verbatim in that request, expanding replies gives back the client bytes, and a result sent as a reply changes only to its original',
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
    expect(checkConversation('anthropic', steps, undefined).replies).toBeGreaterThan(0);
  });
  test('#24.1 the generator reaches replies (the property is not vacuous)', () => {
    const read = { kind: 'read', path: '/w/a.ts', reuse: false } as const;
    const grep = { kind: 'grep', path: '/w/a.ts', reuse: false } as const;
    expect(
      checkConversation(
        'anthropic',
        [pressed([read, grep]), pressed([read]), pressed([grep])],
        undefined,
      ).replies,
    ).toBe(3);
  });
  test('#24.1 the generator reaches repeated-lines replies (the property covers them)', () => {
    const run = { kind: 'test', path: '/w/a.ts', reuse: false } as const;
    const write = { kind: 'write', path: '/w/a.ts', reuse: false } as const;
    const steps = [pressed([run]), pressed([write]), pressed([run]), pressed([write, run])];
    // The first reply, sent again in the last request, and the last run.
    expect(checkConversation('openai-chat', steps, undefined).lines).toBe(3);
  });
});
