import { describe, expect, it } from 'vitest';
import { ConversationStore } from '../decide/conversationStore.js';
import { densifyRequest, type DensifyOptions } from './densifyRequest.js';
import {
  anthropicBody,
  claudeSession,
  FILE_TEXT,
  pointerAfter,
  unpointed,
} from '../test-utils/wireRequests.js';

const READ_R1 = `"tool_use_id":"r1","content":`;

function options(body: string | Buffer, extra: Partial<DensifyOptions> = {}): DensifyOptions {
  return {
    api: 'anthropic',
    body: typeof body === 'string' ? Buffer.from(body) : body,
    sessionId: 'S1',
    store: new ConversationStore(),
    now: 0,
    pressureTokens: 1_000_000,
    ...extra,
  };
}

type Json = Record<string, unknown>;
const withMessage = (messages: Json[], content: unknown): Json[] => [
  ...messages,
  { role: 'user', content },
];

describe('densifyRequest on requests it cannot read in full', () => {
  it('#22.19 text with U+FFFD is ordinary text: the request is densified', () => {
    const messages = withMessage(claudeSession(2), [
      { type: 'text', text: 'the log shows \uFFFD\uFFFD where bytes were lost' },
    ]);
    const result = densifyRequest(options(anthropicBody(messages)));
    expect(result.unsupported).toBeUndefined();
    expect(result.body.toString()).toMatch(pointerAfter(`${READ_R1}`));
    expect(result.body.toString()).toContain('\uFFFD\uFFFD where bytes were lost');
  });

  it('#22.19 a body that is not valid UTF-8 goes out as the same bytes and says why', () => {
    const text = anthropicBody(claudeSession(2));
    const body = Buffer.concat([
      Buffer.from(text.slice(0, -1)),
      Buffer.from([0xff]),
      Buffer.from('}'),
    ]);
    const result = densifyRequest(options(body));
    expect(result.body.equals(body)).toBe(true);
    expect(result.passThrough).toEqual({ kind: 'dropped', reason: 'body-not-utf8', kept: 0 });
  });

  it('#22.19 a request that must pass through repeats the pointers already sent, byte-exactly', () => {
    const store = new ConversationStore();
    const first = densifyRequest(options(anthropicBody(claudeSession(2)), { store }));
    expect(first.pointers).toBe(1);
    const later = anthropicBody(withMessage(claudeSession(3), [{ type: 'mystery_block' }]));
    const result = densifyRequest(options(later, { store, now: 1000 }));
    expect(result.unsupported).toContain('mystery_block');
    expect(result.passThrough).toEqual({ kind: 'kept', pointers: 1 });
    expect(result.conversationId).toBe(first.conversationId);
    const sent = result.body.toString();
    expect(sent).toMatch(pointerAfter(`${READ_R1}`));
    expect(unpointed(sent, FILE_TEXT)).toBe(later);
    // The prefix the provider cached for the first request is the prefix of this one.
    const cached = first.body.toString();
    const upTo = cached.indexOf(
      '{"role":"user","content":[{"type":"tool_result","tool_use_id":"e1"',
    );
    expect(sent.slice(0, upTo)).toBe(cached.slice(0, upTo));
  });

  it('#22.19 when an earlier message changed, it goes out unchanged and says the cache broke, and why', () => {
    const store = new ConversationStore();
    densifyRequest(options(anthropicBody(claudeSession(2)), { store }));
    const rewound = anthropicBody(withMessage(claudeSession(1), [{ type: 'mystery_block' }]));
    const result = densifyRequest(options(rewound, { store, now: 1000 }));
    expect(result.body.toString()).toBe(rewound);
    expect(result.passThrough).toEqual({ kind: 'dropped', reason: 'history-changed', kept: 0 });
  });

  it('#22.19 a pass-through in a conversation that never sent a pointer breaks nothing', () => {
    const body = anthropicBody(withMessage(claudeSession(1), [{ type: 'mystery_block' }]));
    const result = densifyRequest(options(body));
    expect(result.body.toString()).toBe(body);
    expect(result.passThrough).toEqual({ kind: 'none' });
  });
});
