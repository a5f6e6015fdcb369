import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { ConversationStore } from '../decide/conversationStore.js';
import { densifyRequest, type DensifyResult } from './densifyRequest.js';
import { bigSessionTurns } from '../test-utils/bigSession.js';
import { anthropicBody } from '../test-utils/wireRequests.js';

type Json = Record<string, unknown>;

const BUDGET = 2_000;

/** One round: a Read, Edit or Bash call and its result, `size` characters of output. */
function round(id: number, kind: 'Read' | 'Edit' | 'Bash', size: number): Json[] {
  const file = `/w/src/m${id % 3}.ts`;
  const input =
    kind === 'Bash'
      ? { command: 'npm test' }
      : kind === 'Edit'
        ? { file_path: file, old_string: 'a', new_string: 'b' }
        : { file_path: file };
  const output =
    kind === 'Read'
      ? `${id}: export const v = ${id};\n`.repeat(Math.ceil(size / 24))
      : kind === 'Edit'
        ? 'updated'
        : 'ok 12 passed\n'.repeat(Math.ceil(size / 13));
  return [
    { role: 'assistant', content: [{ type: 'tool_use', id: `t${id}`, name: kind, input }] },
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: `t${id}`, content: output }] },
  ];
}

function withBreakpoint(messages: readonly Json[]): Json[] {
  const last = messages.at(-1) as { role: string; content: Json[] };
  const content = [...last.content];
  content[content.length - 1] = { ...content.at(-1), cache_control: { type: 'ephemeral' } };
  return [...messages.slice(0, -1), { ...last, content }];
}

const ROUND = fc.record({
  kind: fc.constantFrom('Read' as const, 'Read' as const, 'Edit' as const, 'Bash' as const),
  size: fc.integer({ min: 20, max: 1_500 }),
});

/**
 * What the client does next: append rounds, take some back, edit an earlier result, resend, or
 * go back to an earlier request.
 */
const STEP = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({
      op: fc.constant('append' as const),
      rounds: fc.array(ROUND, { minLength: 1, maxLength: 3 }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      op: fc.constant('rewind' as const),
      rounds: fc.integer({ min: 1, max: 3 }),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      op: fc.constant('edit' as const),
      /** Which result, counted back from the newest (the read cache resumes near the end). */
      back: fc.oneof(fc.integer({ min: 0, max: 4 }), fc.nat(40)),
    }),
  },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('resend' as const) }) },
  {
    weight: 1,
    /** Back to an earlier request's messages (how many requests back), e.g. an edit undone. */
    arbitrary: fc.record({ op: fc.constant('return' as const), back: fc.nat(6) }),
  },
);

type Step = typeof STEP extends fc.Arbitrary<infer T> ? T : never;

function apply(sent: readonly Json[][], step: Step, next: () => number): Json[] {
  const messages = sent.at(-1) ?? [];
  switch (step.op) {
    case 'append':
      return [...messages, ...step.rounds.flatMap((r) => round(next(), r.kind, r.size))];
    case 'rewind':
      return messages.slice(0, Math.max(3, messages.length - 2 * step.rounds));
    case 'edit': {
      // The results are the even messages after the task.
      const index = Math.max(2, 2 * Math.floor((messages.length - 1) / 2) - 2 * step.back);
      const target = messages[index] as { role: string; content: Json[] };
      const content = [...target.content];
      const block = content[0] as Json;
      content[0] =
        block.type === 'tool_result'
          ? { ...block, content: `${String(block.content)} edited` }
          : { ...block, text: `${String(block.text)} edited` };
      return messages.map((m, i) => (i === index ? { ...target, content } : m));
    }
    case 'resend':
      return messages;
    case 'return':
      return sent[Math.max(0, sent.length - 1 - step.back)] ?? messages;
    default: {
      const never: never = step;
      return never;
    }
  }
}

/** The proxy's density step with the working budget on, as the server drives it. */
function budgetSide(store: ConversationStore, perChar: number | undefined) {
  return (body: string, now: number): DensifyResult => {
    const result = densifyRequest({
      api: 'anthropic',
      body: Buffer.from(body),
      sessionId: 's',
      store,
      now,
      pressureTokens: 1_000_000,
      workingBudget: { tokens: BUDGET, longContext: false },
    });
    // The upstream's count calibrates the next estimate (the server sets it from the reply).
    if (perChar !== undefined && result.conversationId !== undefined) {
      store.get(result.conversationId, now).budget.promptTokensPerChar = perChar;
    }
    return result;
  };
}

const visible = (result: DensifyResult) => ({
  body: result.body.toString(),
  compaction: result.compaction,
  removedChars: result.removedChars,
  sentChars: result.sentChars,
  recalls: result.recalls.map((entry) => entry.id),
});

describe('the working budget reused on a verified prefix', () => {
  test.prop(
    [
      fc.array(ROUND, { minLength: 1, maxLength: 12 }),
      fc.array(STEP, { minLength: 1, maxLength: 14 }),
      fc.constantFrom(undefined, 0.2, 0.25, 0.3),
    ],
    { numRuns: 100 },
  )(
    '#24.4 the forwarded request equals a fresh settle (nothing read cached) on random append/rewind/edit sequences',
    (start, steps, perChar) => {
      let id = 0;
      const next = () => ++id;
      const sent: Json[][] = [
        [
          { role: 'user', content: [{ type: 'text', text: 'refactor' }] },
          ...start.flatMap((r) => round(next(), r.kind, r.size)),
        ],
      ];
      const reusing = budgetSide(new ConversationStore(), perChar);
      const fresh = budgetSide(new ConversationStore({ reads: { maxEntries: 0 } }), perChar);
      let now = 0;
      for (const step of [{ op: 'resend' as const }, ...steps]) {
        const messages = apply(sent, step, next);
        sent.push(messages);
        const body = anthropicBody(withBreakpoint(messages));
        now += 1_000;
        expect(visible(reusing(body, now))).toEqual(visible(fresh(body, now)));
      }
    },
  );

  it('#24.4 a request that extends a compacted conversation repeats its compaction from the verified prefix, without reading the compacted messages', () => {
    const store = new ConversationStore();
    const fresh = budgetSide(new ConversationStore({ reads: { maxEntries: 0 } }), undefined);
    const reusing = budgetSide(store, undefined);
    const turns = bigSessionTurns(20_000, 3);
    const results = turns.map((body, index) => ({
      reused: reusing(body, index),
      fresh: fresh(body, index),
    }));
    expect(results.map(({ reused }) => reused.compaction?.kind)).toEqual([
      'compacted',
      'kept',
      'kept',
    ]);
    for (const { reused, fresh: alone } of results) expect(visible(reused)).toEqual(visible(alone));
    expect(store.compactionReads.counts).toEqual({ verified: 2, checked: 0 });
  });
});
