/**
 * Invariants every conversion must keep for ANY history, including ones density pruning or an
 * interrupted turn left with unpaired tool calls and responses: the request each API receives has
 * no dangling tool-call ids and follows that API's turn rules.
 */
import { fc, test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import type { ContentBlockParam, MessageParam } from '@anthropic-ai/sdk/resources/messages';
import type { Content } from '@google/genai';
import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import {
  createAiMessage,
  createToolResponse,
  createUserMessage,
  textBlock,
  toolCallBlock,
  type ContentBlock,
  type IContent,
} from '../services/history/IContent.js';
import { toAnthropicMessages } from './anthropicConversion.js';
import { toGeminiContents } from './geminiConversion.js';
import { toOpenAIMessages } from './openaiConversion.js';
import { pairToolCalls } from './pairToolCalls.js';

/** A turn: a user message, or an AI entry with calls followed by responses to some of them. */
const turnArb = fc.oneof(
  fc.record({
    kind: fc.constant('human' as const),
    text: fc.string({ minLength: 1, maxLength: 8 }),
  }),
  fc.record({
    kind: fc.constant('calls' as const),
    text: fc.option(fc.string({ minLength: 1, maxLength: 8 }), { nil: undefined }),
    calls: fc.integer({ min: 0, max: 3 }),
    answered: fc.array(fc.boolean(), { minLength: 3, maxLength: 3 }),
    orphan: fc.boolean(),
    splitResponses: fc.boolean(),
    reverse: fc.boolean(),
  }),
);

/** Builds a history, then deletes some entries as pruning would. */
const historyArb = fc
  .tuple(fc.array(turnArb, { maxLength: 8 }), fc.array(fc.nat(), { maxLength: 4 }))
  .map(([turns, deletions]) => {
    let next = 0;
    const history: IContent[] = [];
    for (const turn of turns) {
      if (turn.kind === 'human') {
        history.push(createUserMessage(turn.text));
        continue;
      }
      const ids = Array.from({ length: turn.calls }, () => `call_${++next}`);
      const blocks: ContentBlock[] = turn.text === undefined ? [] : [textBlock(turn.text)];
      for (const id of ids) blocks.push(toolCallBlock(id, 'read_file', { file_path: `/f/${id}` }));
      if (blocks.length > 0) history.push(createAiMessage(blocks));
      let responses = ids
        .filter((_, i) => turn.answered[i] === true)
        .map((id) => ({ callId: id, toolName: 'read_file', result: `content of ${id}` }));
      if (turn.orphan)
        responses.push({ callId: `gone_${++next}`, toolName: 'read_file', result: 'x' });
      if (turn.reverse) responses = responses.reverse();
      if (responses.length === 0) continue;
      if (turn.splitResponses) for (const r of responses) history.push(createToolResponse(r));
      else history.push(createToolResponse(responses));
    }
    for (const d of deletions) if (history.length > 0) history.splice(d % history.length, 1);
    return history;
  });

const RUNS = { numRuns: 300 };

describe('pairToolCalls', () => {
  test.prop([historyArb], RUNS)('is idempotent', (history) => {
    const once = pairToolCalls(history).contents;
    const twice = pairToolCalls(once);
    expect(twice.contents).toEqual(once);
    expect(twice.droppedCallIds).toEqual([]);
    expect(twice.droppedResponseIds).toEqual([]);
  });

  test.prop([historyArb], RUNS)('never drops or reorders text', (history) => {
    const texts = (h: readonly IContent[]) =>
      h.flatMap((c) => c.blocks.flatMap((b) => (b.type === 'text' ? [b.text] : [])));
    expect(texts(pairToolCalls(history).contents)).toEqual(texts(history));
  });
});

describe('OpenAI messages', () => {
  test.prop([historyArb], RUNS)('have no dangling tool call ids', (history) => {
    assertOpenAIValid(toOpenAIMessages(history, 'system'));
  });
});

describe('Anthropic messages', () => {
  test.prop([historyArb], RUNS)(
    'alternate roles and pair every tool_use with a tool_result',
    (history) => {
      assertAnthropicValid(toAnthropicMessages(history));
    },
  );
});

describe('Anthropic cache anchors (issue 14.3)', () => {
  const withAnchors = historyArb.chain((history) =>
    fc.tuple(
      fc.constant(history),
      fc.subarray(history, { maxLength: Math.min(2, history.length) }),
    ),
  );
  test.prop([withAnchors], RUNS)(
    '#14.3 anchors only add breakpoints: at most one per anchor, never on the last message, nothing else changes',
    ([history, anchors]) => {
      const plain = toAnthropicMessages(history);
      const anchored = toAnthropicMessages(history, anchors);
      const marked = anchored.flatMap((message, m) =>
        blocksOf(message).flatMap((block, b) =>
          'cache_control' in block && block.cache_control !== undefined ? [[m, b]] : [],
        ),
      );
      expect(marked.length).toBeLessThanOrEqual(anchors.length);
      for (const [m] of marked) expect(m).toBeLessThan(anchored.length - 1);
      const stripped = anchored.map((message) => ({
        ...message,
        content: blocksOf(message).map((block) => {
          const { cache_control: _drop, ...rest } = block as { cache_control?: unknown };
          return rest;
        }),
      }));
      expect(stripped).toEqual(plain);
    },
  );
});

describe('Gemini contents', () => {
  test.prop([historyArb], RUNS)(
    'alternate roles and pair every functionCall with a functionResponse',
    (history) => {
      assertGeminiValid(toGeminiContents(history));
    },
  );
});

function assertOpenAIValid(messages: readonly ChatCompletionMessageParam[]): void {
  for (let i = 0; i < messages.length; i++) {
    const message = messages[i]!;
    if (message.role === 'assistant' && message.tool_calls) {
      const expected = message.tool_calls.map((c) => c.id).sort();
      const answered: string[] = [];
      for (let j = i + 1; j < messages.length && messages[j]!.role === 'tool'; j++) {
        const tool = messages[j] as { tool_call_id: string };
        answered.push(tool.tool_call_id);
      }
      expect(answered.sort()).toEqual(expected);
    }
    if (message.role === 'tool') {
      let j = i - 1;
      while (j >= 0 && messages[j]!.role === 'tool') j--;
      const owner = messages[j];
      expect(owner?.role).toBe('assistant');
      const ids = owner?.role === 'assistant' ? (owner.tool_calls ?? []).map((c) => c.id) : [];
      expect(ids).toContain(message.tool_call_id);
    }
  }
}

function blocksOf(message: MessageParam): ContentBlockParam[] {
  return typeof message.content === 'string' ? [] : [...message.content];
}

function assertAnthropicValid(messages: readonly MessageParam[]): void {
  if (messages.length > 0) expect(messages[0]!.role).toBe('user');
  messages.forEach((message, i) => {
    expect(blocksOf(message).length).toBeGreaterThan(0);
    if (i > 0) expect(message.role).not.toBe(messages[i - 1]!.role);
    const uses = blocksOf(message).flatMap((b) => (b.type === 'tool_use' ? [b.id] : []));
    const results = blocksOf(message).flatMap((b) =>
      b.type === 'tool_result' ? [b.tool_use_id] : [],
    );
    if (uses.length > 0) {
      const next = messages[i + 1];
      expect(next?.role).toBe('user');
      const answered = next
        ? blocksOf(next).flatMap((b) => (b.type === 'tool_result' ? [b.tool_use_id] : []))
        : [];
      expect([...answered].sort()).toEqual([...uses].sort());
      const firstOther = next ? blocksOf(next).findIndex((b) => b.type !== 'tool_result') : -1;
      if (firstOther >= 0) expect(firstOther).toBe(answered.length);
    }
    if (results.length > 0) {
      const previous = messages[i - 1];
      const ids = previous
        ? blocksOf(previous).flatMap((b) => (b.type === 'tool_use' ? [b.id] : []))
        : [];
      for (const id of results) expect(ids).toContain(id);
    }
  });
}

function assertGeminiValid(contents: readonly Content[]): void {
  if (contents.length > 0) expect(contents[0]!.role).toBe('user');
  contents.forEach((content, i) => {
    expect(content.parts?.length ?? 0).toBeGreaterThan(0);
    if (i > 0) expect(content.role).not.toBe(contents[i - 1]!.role);
    const calls = (content.parts ?? []).flatMap((p) => (p.functionCall ? [p.functionCall] : []));
    const responses = (content.parts ?? []).flatMap((p) =>
      p.functionResponse ? [p.functionResponse] : [],
    );
    if (calls.length > 0) {
      const next = contents[i + 1];
      const answered = (next?.parts ?? []).flatMap((p) =>
        p.functionResponse ? [p.functionResponse] : [],
      );
      expect(answered.map((r) => `${r.id}:${r.name}`).sort()).toEqual(
        calls.map((c) => `${c.id}:${c.name}`).sort(),
      );
    }
    if (responses.length > 0) {
      const previous = contents[i - 1];
      const ids = (previous?.parts ?? []).flatMap((p) =>
        p.functionCall ? [p.functionCall.id] : [],
      );
      for (const r of responses) expect(ids).toContain(r.id);
    }
  });
}
