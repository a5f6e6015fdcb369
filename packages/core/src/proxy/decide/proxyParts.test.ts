import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { cacheRulesFor } from '../../cache/cacheRules.js';
import { ConversationStore, conversationKey } from './conversationStore.js';
import { scheduleEdits, type ScheduleInput } from './proxySchedule.js';
import { normalizeUsage, UsageMeter } from '../meter/usageMeter.js';
import type { ResultSite, WireHistory } from '../wire/wireHistory.js';
import { wireCache, wireShape, type WireShape } from './wireCache.js';

const site = (messageIndex: number, start: number, length: number): ResultSite => ({
  callId: `c${messageIndex}`,
  messageIndex,
  blockIndex: 0,
  start,
  end: start + length,
});

/** Claude Code's layout: breakpoints on the system prompt and the newest message. */
function shape(messages: readonly { chars: number; blocks?: number }[]): WireShape {
  return {
    leadChars: 10_000,
    messages: messages.map((m, i) => ({
      chars: m.chars,
      blocks: m.blocks ?? 1,
      assistant: i % 2 === 1,
    })),
    breakpointMessages: [messages.length - 1],
    leadBreakpoint: true,
  };
}

/** Lead 10k chars, 8 messages of 22.5k, the newest 10k: 200k chars; message i at 10k + i × 22.5k. */
const nine = shape([...Array.from({ length: 8 }, () => ({ chars: 22_500 })), { chars: 10_000 }]);

function input(extra: Partial<ScheduleInput>): ScheduleInput {
  return {
    candidates: [site(2, 55_000, 200)],
    messageCount: 9,
    totalChars: 200_000,
    cache: wireCache(nine),
    gapMs: 1_000,
    hasPrevious: true,
    rules: cacheRulesFor('anthropic'),
    pressureTokens: 150_000,
    paybackCalls: 15,
    riskBudget: undefined,
    ...extra,
  };
}

describe('scheduleEdits', () => {
  it('#15.3 a small edit deep in a warm cache waits', () => {
    expect(scheduleEdits(input({}))).toMatchObject({ apply: [], reason: 'deferred' });
  });
  it('#15.3 the same edit goes out when the real gap exceeds the TTL', () => {
    expect(scheduleEdits(input({ gapMs: 6 * 60_000 })).reason).toBe('cache-cold');
  });
  it('#15.3 under pressure every candidate goes out', () => {
    expect(scheduleEdits(input({ pressureTokens: 10_000 })).reason).toBe('under-pressure');
  });
  it('#23.3 under pressure a batch beyond the risk budget waits: the proxy cannot compress, its client does', () => {
    expect(scheduleEdits(input({ pressureTokens: 10_000, riskBudget: 0 })).reason).toBe('deferred');
  });
  it('#15.3 a large edit near the end pays back at once', () => {
    const big = [site(7, 167_500, 20_000)];
    expect(scheduleEdits(input({ candidates: big })).reason).toBe('pays-back');
  });
  it('#15.3 an edit in the newest message is free', () => {
    const newest = [site(8, 195_000, 200)];
    expect(scheduleEdits(input({ candidates: newest })).apply).toEqual(newest);
  });
  it("#23.2 with Claude Code's breakpoints, a newest message of 30 blocks puts every earlier prompt out of reach: a deep edit costs nothing more and goes out", () => {
    const wide = shape([
      ...Array.from({ length: 8 }, () => ({ chars: 22_500 })),
      { chars: 10_000, blocks: 30 },
    ]);
    expect(scheduleEdits(input({ cache: wireCache(wide) })).reason).toBe('pays-back');
  });
  it('#23.2 wireShape: a cache_control in a message marks its end, one outside the messages the lead', () => {
    const text =
      '{"system":[{"cache_control":{}}],"messages":[{"a":1},{"b":{"cache_control":{}}}]}';
    const first = text.indexOf('{"a"');
    const second = text.indexOf('{"b"');
    const wire = {
      messageSpans: [
        { start: first, end: first + 7 },
        { start: second, end: text.length - 2 },
      ],
      history: [],
    } as unknown as WireHistory;
    expect(wireShape(text, wire)).toMatchObject({ leadBreakpoint: true, breakpointMessages: [1] });
  });
});

describe('ConversationStore', () => {
  it('#15.3 keeps at most maxConversations, dropping the least recently used', () => {
    const store = new ConversationStore({ maxConversations: 2, now: () => 0 });
    store.get('a').applied.add('x');
    store.get('b');
    store.get('a');
    store.get('c');
    expect(store.all().map((state) => state.id)).toEqual(['a', 'c']);
    expect(store.get('a').applied.has('x')).toBe(true);
  });
  it('#15.3 forgets conversations idle longer than idleMs', () => {
    const store = new ConversationStore({ idleMs: 1000 });
    store.get('a', 0).lastRequestAt = 0;
    store.get('b', 1500);
    expect(store.all().map((state) => state.id)).toEqual(['b']);
  });
  it('#15.3 a session header and the content hash name a conversation', () => {
    expect(conversationKey('abc', 'x')).toMatch(/^session:abc:[0-9a-f]{16}$/);
    expect(conversationKey('abc', 'x')).not.toBe(conversationKey('abc', 'side request'));
    expect(conversationKey(undefined, 'x')).toBe(conversationKey(undefined, 'x'));
    expect(conversationKey(undefined, 'x')).not.toBe(conversationKey(undefined, 'y'));
  });
});

const SSE = [
  'event: message_start\ndata: {"type":"message_start","message":{"usage":{"input_tokens":5,"cache_creation_input_tokens":7,"cache_read_input_tokens":900,"output_tokens":1}}}\n\n',
  'event: content_block_delta\ndata: {"type":"content_block_delta","delta":{"text":"hi"}}\n\n',
  'event: message_delta\ndata: {"type":"message_delta","usage":{"output_tokens":33}}\n\n',
].join('');

describe('UsageMeter', () => {
  test.prop([fc.array(fc.integer({ min: 1, max: SSE.length - 1 }), { maxLength: 8 })])(
    '#15.5 SSE usage is the same however the stream is cut into chunks',
    (cuts) => {
      const meter = new UsageMeter(true);
      const points = [0, ...[...new Set(cuts)].sort((a, b) => a - b), SSE.length];
      for (let i = 1; i < points.length; i++) {
        meter.push(Buffer.from(SSE.slice(points[i - 1], points[i])));
      }
      expect(meter.finish()).toEqual({ input: 5, cacheCreation: 7, cacheRead: 900, output: 33 });
    },
  );
  it('#15.5 OpenAI Chat and Responses usage count cached tokens as cache reads', () => {
    expect(
      normalizeUsage({
        prompt_tokens: 100,
        completion_tokens: 4,
        prompt_tokens_details: { cached_tokens: 60 },
      }),
    ).toEqual({ input: 40, cacheRead: 60, output: 4 });
    expect(
      normalizeUsage({
        input_tokens: 100,
        input_tokens_details: { cached_tokens: 90 },
        output_tokens: 2,
      }),
    ).toEqual({ input: 10, cacheRead: 90, output: 2 });
  });
  it('#15.5 a non-streaming JSON body is read at the end', () => {
    const meter = new UsageMeter(false);
    meter.push(Buffer.from('{"usage":{"input_tokens":3,'));
    meter.push(Buffer.from('"output_tokens":4}}'));
    expect(meter.finish()).toEqual({ input: 3, output: 4, cacheCreation: 0, cacheRead: 0 });
  });
});
