/**
 * Issue #12.3: properties of positional pairing over random histories whose tool-call ids repeat
 * (within a reply and across the session). Every call carries a tag in its parameters and every
 * response the same tag in its result, so the truth is known whatever the ids say.
 */
import { fc, test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import { buildToolCallIndex } from '../../core/compression/density/toolCallIndex.js';
import { safeSplitPoints } from '../../core/compression/toolCallBoundary.js';
import { toAnthropicMessages } from '../../providers/anthropicConversion.js';
import { toGeminiContents } from '../../providers/geminiConversion.js';
import { toOpenAIMessages } from '../../providers/openaiConversion.js';
import {
  createAiMessage,
  createToolResponse,
  createUserMessage,
  textBlock,
  toolCallBlock,
  type ContentBlock,
  type IContent,
} from './IContent.js';
import { pairToolCallsByPosition } from './toolCallPairing.js';

/** A user message, or a reply with calls (ids from a tiny pool) and answers to a prefix of them. */
const turnArb = fc.oneof(
  fc.record({ kind: fc.constant('human' as const) }),
  fc.record({
    kind: fc.constant('calls' as const),
    ids: fc.array(fc.constantFrom('call_1', 'call_2', 'call.1'), { minLength: 1, maxLength: 3 }),
    answered: fc.nat(3),
    split: fc.boolean(),
    /** A user message between the calls and their answers (a pair the providers cannot send). */
    gap: fc.boolean(),
  }),
);

type Turn = typeof turnArb extends fc.Arbitrary<infer T> ? T : never;

interface Built {
  readonly history: IContent[];
  /** tag → [entry of the call, entry of its response (-1: unanswered)] */
  readonly truth: Map<string, [number, number]>;
}

function build(turns: readonly Turn[]): Built {
  const history: IContent[] = [];
  const truth = new Map<string, [number, number]>();
  let next = 0;
  for (const turn of turns) {
    if (turn.kind === 'human') {
      history.push(createUserMessage(`user ${history.length}`));
      continue;
    }
    const tags = turn.ids.map(() => `T${next++}`);
    const callEntry = history.length;
    const blocks: ContentBlock[] = [textBlock('calling')];
    turn.ids.forEach((id, i) => blocks.push(toolCallBlock(id, 'read_file', { tag: tags[i] })));
    history.push(createAiMessage(blocks));
    tags.forEach((tag) => truth.set(tag, [callEntry, -1]));
    const answered = turn.ids.slice(0, turn.answered).map((id, i) => ({
      callId: id,
      toolName: 'read_file',
      result: `result ${tags[i]}`,
    }));
    if (answered.length === 0) continue;
    if (turn.gap) history.push(createUserMessage('meanwhile'));
    const groups = turn.split ? answered.map((r) => [r]) : [answered];
    for (const group of groups) {
      for (const r of group) truth.set(r.result.slice(7), [callEntry, history.length]);
      history.push(createToolResponse(group));
    }
  }
  return { history, truth };
}

const builtArb = fc.array(turnArb, { maxLength: 12 }).map((turns) => build(turns));
const RUNS = { numRuns: 200 };
const tagOf = (value: unknown): string | undefined => /T\d+/.exec(JSON.stringify(value))?.[0];

/** Pairs the history's providers can send: answered right after the reply that made the call. */
function sendable(built: Built): Set<string> {
  const out = new Set<string>();
  for (const [tag, [call, response]] of built.truth) {
    const between = built.history.slice(call + 1, response);
    if (response > call && between.every((e) => e.speaker === 'tool')) out.add(tag);
  }
  return out;
}

/** [wire id, tag] of every call and of every result of a request. */
interface Wire {
  readonly calls: [string, string | undefined][];
  readonly results: [string, string | undefined][];
}

type Json = Record<string, unknown>;
const list = (value: unknown): Json[] => (Array.isArray(value) ? (value as Json[]) : []);

function openaiWire(history: readonly IContent[]): Wire {
  const messages = toOpenAIMessages(history, 'system') as unknown as Json[];
  return {
    calls: messages.flatMap((m) =>
      list(m.tool_calls).map((c): [string, string | undefined] => [String(c.id), tagOf(c)]),
    ),
    results: messages
      .filter((m) => m.role === 'tool')
      .map((m): [string, string | undefined] => [String(m.tool_call_id), tagOf(m.content)]),
  };
}

function anthropicWire(history: readonly IContent[]): Wire {
  const blocks = (toAnthropicMessages(history) as unknown as Json[]).flatMap((m) =>
    list(m.content),
  );
  return {
    calls: blocks
      .filter((b) => b.type === 'tool_use')
      .map((b): [string, string | undefined] => [String(b.id), tagOf(b.input)]),
    results: blocks
      .filter((b) => b.type === 'tool_result')
      .map((b): [string, string | undefined] => [String(b.tool_use_id), tagOf(b.content)]),
  };
}

function geminiWire(history: readonly IContent[]): Wire {
  const parts = (toGeminiContents(history) as unknown as Json[]).flatMap((c) => list(c.parts));
  return {
    calls: parts.flatMap((p): [string, string | undefined][] => {
      const call = p.functionCall as Json | undefined;
      return call ? [[String(call.id), tagOf(call.args)]] : [];
    }),
    results: parts.flatMap((p): [string, string | undefined][] => {
      const response = p.functionResponse as Json | undefined;
      return response ? [[String(response.id), tagOf(response.response)]] : [];
    }),
  };
}

describe('#12.3 positional pairing with reused ids', () => {
  test.prop([builtArb, fc.constantFrom(pairToolCallsByPosition, buildToolCallIndex)], RUNS)(
    '#12.3 every call is paired with exactly the response that follows it (shared rule, density index)',
    ({ history, truth }, pair) => {
      const pairing = pair(history);
      for (const call of pairing.calls) {
        const tag = tagOf(call.block.parameters)!;
        const expected = truth.get(tag)![1];
        expect(call.responses.map((r) => r.entryIndex)).toEqual(expected < 0 ? [] : [expected]);
        expect(call.responses.map((r) => tagOf(r.block.result))).toEqual(expected < 0 ? [] : [tag]);
      }
      for (const response of pairing.responses) {
        expect(tagOf(response.call?.block.parameters)).toBe(tagOf(response.block.result));
      }
    },
  );

  test.prop([builtArb], RUNS)(
    '#12.3 split points never separate a call from its response, and every other split is safe',
    ({ history, truth }) => {
      const unsafe = new Set<number>();
      for (const [call, response] of truth.values()) {
        for (let j = call + 1; j <= response; j++) unsafe.add(j);
      }
      const expected = Array.from({ length: history.length + 1 }, (_, j) => !unsafe.has(j));
      expect(safeSplitPoints(history)).toEqual(expected);
    },
  );

  test.prop([builtArb, fc.constantFrom(openaiWire, anthropicWire, geminiWire)], RUNS)(
    '#12.3 provider conversions never drop or orphan a sendable call or result, ids unique',
    (built, toWire) => {
      const wire = toWire(built.history);
      const expected = [...sendable(built)].sort();
      expect(wire.calls.map(([, tag]) => tag).sort()).toEqual(expected);
      expect(wire.results.map(([, tag]) => tag).sort()).toEqual(expected);
      const ids = wire.calls.map(([id]) => id);
      expect(new Set(ids).size).toBe(ids.length);
      const tagById = new Map(wire.calls);
      for (const [id, tag] of wire.results) expect(tagById.get(id)).toBe(tag);
    },
  );
});
