import { describe, expect, it } from 'vitest';
import { budgetProxy } from '../test-utils/budgetProxy.js';
import {
  bigReadTurn,
  longSessionBody,
  longSessionMessages,
  shortReplyTurn,
  TASK,
} from '../test-utils/longSession.js';
import { anthropicBody, FILE_TEXT } from '../test-utils/wireRequests.js';

type Json = Record<string, unknown>;
interface Message {
  role: string;
  content: Json[];
}

const BUDGET = 20_000;

function setup(budget: number | undefined = BUDGET) {
  const proxy = budgetProxy({ api: 'anthropic', budget, sessionId: 's1' });
  return { ...proxy, sink: proxy.kept };
}

const messagesOf = (body: Buffer): Message[] =>
  (JSON.parse(body.toString()) as { messages: Message[] }).messages;
const rawMessages = (body: string): string[] =>
  (JSON.parse(body) as { messages: Json[] }).messages.map((m) => JSON.stringify(m));

describe('working budget: wire compaction', () => {
  it('#24.1 a request over the budget goes out under it, as one summary message then whole newest turns', () => {
    const { send } = setup();
    const body = longSessionBody(30, 4_000);
    expect(body.length / 4).toBeGreaterThan(BUDGET);
    const result = send(body);
    expect(result.compaction?.kind).toBe('compacted');
    expect(result.body.length / 4).toBeLessThanOrEqual(BUDGET);
    const sent = messagesOf(result.body);
    const original = rawMessages(body);
    const cut = result.compaction?.cut ?? 0;
    expect(sent[0]?.role).toBe('user');
    expect(sent[1]?.role).toBe('assistant');
    // Every kept message is the client's, unchanged (thinking signatures included).
    expect(sent.slice(1).map((m) => JSON.stringify(m))).toEqual(original.slice(cut));
    expect(sent.length).toBe(original.length - cut + 1);
  });

  it('#24.1 the summary keeps the task, the todo list, the tool lines with recall ids, and every named original is returned for recall', () => {
    const { send, sink } = setup();
    const result = send(longSessionBody(30, 4_000));
    const summary = String(messagesOf(result.body)[0]?.content[0]?.text);
    expect(summary).toContain(TASK);
    expect(summary).toContain('Add validation to lexer.ts');
    expect(summary).toContain('[>]');
    const ids = [...summary.matchAll(/recall id (r[0-9a-f]{10})/g)].map((m) => m[1] as string);
    expect(ids.length).toBeGreaterThan(2);
    for (const id of ids) expect(sink.get(id)).toBeDefined();
    expect(summary).toMatch(/\/w\/src\/m0\.ts/);
    // The whole removed span is one recall id, byte for byte.
    const whole = /dense recall (r[0-9a-f]{10})/.exec(summary)?.[1] ?? '';
    expect(sink.get(whole)).toContain('"tool_use_id":"read0"');
  });

  it('#24.1 never splits a tool call from its result and keeps the newest tool result intact', () => {
    const { send } = setup(8_000);
    for (const rounds of [5, 12, 25, 40]) {
      const body = longSessionBody(rounds, 3_000);
      const sent = messagesOf(send(body).body);
      const uses = new Set<string>();
      for (const message of sent) {
        for (const block of message.content) {
          if (block.type === 'tool_use') uses.add(String(block.id));
          if (block.type === 'tool_result') expect(uses.has(String(block.tool_use_id))).toBe(true);
        }
      }
      expect(JSON.stringify(sent.at(-1))).toBe(rawMessages(body).at(-1));
      expect(JSON.stringify(sent.at(-2))).toBe(rawMessages(body).at(-2));
    }
  });

  it('#24.1 sticky: later requests repeat the same replacement bytes while the prefix is unchanged', () => {
    const { send } = setup();
    const first = send(longSessionBody(30, 4_000));
    const second = send(longSessionBody(31, 4_000));
    const third = send(longSessionBody(32, 4_000));
    expect(second.compaction?.kind).toBe('kept');
    expect(third.compaction?.kind).toBe('kept');
    expect([second.prefixStable, third.prefixStable]).toEqual([true, true]);
    const summaryOf = (body: Buffer) => JSON.stringify(messagesOf(body)[0]);
    expect(summaryOf(second.body)).toBe(summaryOf(first.body));
    expect(summaryOf(third.body)).toBe(summaryOf(first.body));
    // The bytes before the newest messages are a prefix of the next request's bytes.
    const a = second.body.toString();
    const b = third.body.toString();
    const sharedMessages = messagesOf(second.body).length - 1;
    const upTo = JSON.stringify(messagesOf(second.body).slice(0, sharedMessages)).length - 1;
    expect(b.slice(0, upTo)).toBe(a.slice(0, upTo));
  });

  it('#24.1 a second compaction extends the first as the conversation grows', () => {
    const { send } = setup();
    const first = send(longSessionBody(30, 4_000));
    let last = first;
    for (let rounds = 31; rounds <= 60; rounds++) {
      last = send(longSessionBody(rounds, 4_000));
      if (last.compaction?.kind === 'compacted') break;
    }
    expect(last.compaction?.kind).toBe('compacted');
    expect(last.compaction?.cut ?? 0).toBeGreaterThan(first.compaction?.cut ?? 0);
    // The extension rewrites the cached prefix from the summary on, and says so.
    expect(last.prefixStable).toBe(false);
    expect(last.body.length / 4).toBeLessThanOrEqual(BUDGET);
  });

  it('#24.1 a request under the budget goes out unchanged; a rewritten prefix drops the compaction', () => {
    const { send } = setup();
    const small = longSessionBody(2, 1_000);
    expect(send(small).body.toString()).toBe(small);
    send(longSessionBody(30, 4_000));
    const rewritten = longSessionBody(30, 4_000).replace(TASK, 'A different task.');
    const again = send(rewritten);
    expect(again.compaction?.kind).toBe('compacted');
    expect(String(messagesOf(again.body)[0]?.content[0]?.text)).toContain('A different task.');
  });

  it('#24.1 token counting repeats the standing compaction and changes nothing', () => {
    const { send, store } = setup();
    const first = send(longSessionBody(30, 4_000));
    const counted = send(longSessionBody(31, 4_000), { readOnly: true });
    expect(counted.compaction?.kind).toBe('kept');
    expect(JSON.stringify(messagesOf(counted.body)[0])).toBe(
      JSON.stringify(messagesOf(first.body)[0]),
    );
    expect(store.all()[0]?.budget.compaction?.cut).toBe(first.compaction?.cut);
  });

  it('#24.1 without a working budget nothing is compacted', () => {
    const { send } = setup();
    const body = longSessionBody(30, 4_000);
    const result = send(body, { workingBudget: undefined });
    expect(result.compaction).toBeUndefined();
    expect(result.body.toString()).toBe(body);
  });

  it('#24.1 density pointers in the kept turns and the compaction go out together, well-formed', () => {
    const { send } = setup();
    const tail: Json[] = [
      {
        role: 'assistant',
        content: [{ type: 'tool_use', id: 'ra', name: 'Read', input: { file_path: '/w/a.ts' } }],
      },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'ra', content: FILE_TEXT }] },
      {
        role: 'assistant',
        content: [
          {
            type: 'tool_use',
            id: 'ea',
            name: 'Edit',
            input: { file_path: '/w/a.ts', old_string: 'v1', new_string: 'w1' },
          },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'ea', content: 'The file /w/a.ts has been updated.' },
        ],
      },
      {
        role: 'assistant',
        content: [{ type: 'tool_use', id: 'rb', name: 'Read', input: { file_path: '/w/a.ts' } }],
      },
      {
        role: 'user',
        content: [{ type: 'tool_result', tool_use_id: 'rb', content: `${FILE_TEXT}\n// edited` }],
      },
    ];
    const body = anthropicBody([...longSessionMessages(30, 4_000), ...tail], {
      model: 'claude-sonnet-4-6',
    });
    const result = send(body, { pressureTokens: 1 });
    expect(result.compaction?.kind).toBe('compacted');
    expect(result.pointers).toBeGreaterThan(0);
    const sent = messagesOf(result.body);
    const text = JSON.stringify(sent);
    expect(text).toContain('[Result pruned (stale read)');
    expect(String(sent[0]?.content[0]?.text)).toContain('Dense compacted the');
    expect(JSON.stringify(sent.at(-1))).toBe(JSON.stringify(tail.at(-1)));
  });

  it('#24.1 a cache breakpoint moved onto a compacted message keeps the same replacement bytes', () => {
    const { send } = setup();
    const first = send(longSessionBody(30, 4_000));
    const messages = longSessionMessages(31, 4_000) as { content: Json[] }[];
    const inside = messages[3]?.content[0] as Json;
    (messages[3] as { content: Json[] }).content[0] = {
      ...inside,
      cache_control: { type: 'ephemeral' },
    };
    const again = send(anthropicBody(messages, { model: 'claude-sonnet-4-6' }));
    expect(again.compaction?.kind).toBe('kept');
    expect(JSON.stringify(messagesOf(again.body)[0])).toBe(
      JSON.stringify(messagesOf(first.body)[0]),
    );
  });

  it('#24.1 a history past the early budget is compacted at once when the cache went cold since the previous request, not while it is warm', () => {
    // 16 rounds: ~18.7k tokens, past the early budget (85% of 20,000), under the budget.
    const compactionAfter = (gapMs: number) => {
      const { send } = setup();
      send(longSessionBody(10, 4_000), { now: 0 });
      return send(longSessionBody(16, 4_000), { now: gapMs }).compaction?.kind;
    };
    // Warm, the rewrite would cost more up front than this young conversation saved.
    expect(compactionAfter(1_000)).toBeUndefined();
    // Past the 5-minute TTL pass-through writes the whole prompt too.
    expect(compactionAfter(6 * 60_000)).toBe('compacted');
  });

  it('#24.1 each request a standing compaction keeps short is booked once into the compaction account: what it leaves out, read no more', () => {
    const { send, store } = setup();
    const first = send(longSessionBody(30, 4_000));
    expect(first.compaction?.kind).toBe('compacted');
    const account = () => store.get(first.conversationId ?? '', 0).budget.compactionNet ?? 0;
    // Needed (the request as sent was over the budget), so not a bet: nothing spent.
    expect(account()).toBe(0);
    const again = send(longSessionBody(31, 4_000));
    expect(again.compaction?.kind).toBe('kept');
    expect(again.pointers + (again.replies ?? 0)).toBe(0);
    // 0.1 (cache read) × the tokens left out (0.25 a character until the upstream reports usage).
    expect(account()).toBeCloseTo(0.1 * 0.25 * again.removedChars, 6);
  });

  it('#35.2 a compaction that had to keep a large new result is finished one reply later, though the request fits the early budget', () => {
    const { send } = setup();
    const big = bigReadTurn();
    const reply = shortReplyTurn();
    const history = [...longSessionMessages(20, 2_000), ...big];
    const first = send(anthropicBody(history, { model: 'claude-sonnet-4-6' }), { now: 0 });
    expect(first.compaction?.kind).toBe('compacted');
    // The big result was new: it stays whole after the summary.
    expect(
      messagesOf(first.body)
        .slice(1)
        .map((m) => JSON.stringify(m)),
    ).toEqual(big.map((m) => JSON.stringify(m)));
    const next = anthropicBody([...history, ...reply], { model: 'claude-sonnet-4-6' });
    expect(first.body.length / 4).toBeLessThan(BUDGET * 0.85);
    // Warm, this young conversation has saved too little to bet the summary's rewrite on the calls
    // after it; once the cache went cold the rewrite costs nothing up front.
    expect(send(next, { now: 1_000 }).compaction?.kind).toBe('kept');
    const finished = send(next, { now: 6 * 60_000 });
    expect(finished.compaction?.kind).toBe('compacted');
    expect(finished.body.toString()).not.toContain('const wide = 1;');
    expect(
      messagesOf(finished.body)
        .slice(1)
        .map((m) => JSON.stringify(m)),
    ).toEqual(reply.map((m) => JSON.stringify(m)));
    // Once: the next request keeps that compaction.
    const reply2 = shortReplyTurn('later');
    const later = send(
      anthropicBody([...history, ...reply, ...reply2], { model: 'claude-sonnet-4-6' }),
    );
    expect(later.compaction?.kind).toBe('kept');
  });
});
