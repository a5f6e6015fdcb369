import { describe, expect, it } from 'vitest';
import { budgetProxy } from '../test-utils/budgetProxy.js';
import type { WireApi } from '../wire/wireHistory.js';
import {
  chatSessionBody,
  CODEX_TASK,
  codexLeadingItems,
  codexSessionBody,
} from '../test-utils/codexSession.js';

type Json = Record<string, unknown>;

const BUDGET = 20_000;
const LEADING = codexLeadingItems().length;

function setup(api: WireApi = 'openai-responses', budget = BUDGET) {
  return budgetProxy({ api, budget });
}

const itemsOf = (text: string): Json[] => (JSON.parse(text) as { input: Json[] }).input;
const raw = (items: readonly Json[]): string[] => items.map((item) => JSON.stringify(item));
const summaryText = (item: Json | undefined): string =>
  String((item?.content as { text?: string }[] | undefined)?.[0]?.text);

describe('working budget: Responses (Codex) wire compaction', () => {
  it('#24.2 a Responses request over the budget goes out under it: leading items unchanged, one summary message, then whole newest rounds', () => {
    const { send } = setup();
    const body = codexSessionBody(30, 4_000, { reasoning: true });
    expect(body.length / 4).toBeGreaterThan(BUDGET);
    const result = send(body);
    expect(result.compaction?.kind).toBe('compacted');
    expect(result.body.length / 4).toBeLessThanOrEqual(BUDGET);
    const original = raw(itemsOf(body));
    const sent = itemsOf(result.body.toString());
    expect(raw(sent.slice(0, LEADING))).toEqual(original.slice(0, LEADING));
    const summary = sent[LEADING];
    expect(summary).toMatchObject({ type: 'message', role: 'user' });
    expect(summaryText(summary)).toContain('Dense compacted the');
    // The kept rounds start with the model's output and are the client's bytes, unchanged.
    expect(sent[LEADING + 1]?.type).toBe('reasoning');
    const cut = result.compaction?.cut ?? 0;
    expect(raw(sent.slice(LEADING + 1))).toEqual(original.slice(LEADING + cut));
    expect(raw(sent.slice(-3))).toEqual(original.slice(-3));
  });

  it('#24.2 the summary keeps the task and the cat commands, names recall ids, and every named original is returned for recall', () => {
    const { send, kept } = setup();
    const result = send(codexSessionBody(30, 4_000));
    const summary = summaryText(itemsOf(result.body.toString())[LEADING]);
    expect(summary).toContain('cat src/m0.ts');
    const ids = [...summary.matchAll(/dense recall (r[0-9a-f]{10})/g)].map((m) => m[1] as string);
    expect(ids.length).toBeGreaterThan(0);
    for (const id of ids) expect(kept.get(id)).toBeDefined();
    const whole = kept.get(ids[0] ?? '') ?? '';
    expect(whole).toContain('"call_id":"call_cat_0"');
    expect(whole).not.toContain(CODEX_TASK);
  });

  it('#24.2 sticky: the next rounds repeat the same summary bytes and extend the previous request byte for byte', () => {
    const { send } = setup();
    const first = send(codexSessionBody(30, 4_000));
    const second = send(codexSessionBody(31, 4_000));
    const third = send(codexSessionBody(32, 4_000));
    expect([second.compaction?.kind, third.compaction?.kind]).toEqual(['kept', 'kept']);
    expect([second.prefixStable, third.prefixStable]).toEqual([true, true]);
    const summaryOf = (body: Buffer) => JSON.stringify(itemsOf(body.toString())[LEADING]);
    expect(summaryOf(second.body)).toBe(summaryOf(first.body));
    const a = second.body.toString();
    const b = third.body.toString();
    expect(b.startsWith(a.slice(0, a.lastIndexOf(']')))).toBe(true);
  });

  it('#24.2 a second compaction extends the first as the session grows, and still fits', () => {
    const { send } = setup();
    const first = send(codexSessionBody(30, 4_000));
    let last = first;
    for (let rounds = 31; rounds <= 60; rounds++) {
      last = send(codexSessionBody(rounds, 4_000));
      if (last.compaction?.kind === 'compacted') break;
    }
    expect(last.compaction?.kind).toBe('compacted');
    expect(last.compaction?.cut ?? 0).toBeGreaterThan(first.compaction?.cut ?? 0);
    expect(last.body.length / 4).toBeLessThanOrEqual(BUDGET);
  });

  it('#24.2 a request under the budget, or a session of leading items only, goes out unchanged', () => {
    const { send } = setup();
    const small = codexSessionBody(2, 1_000);
    expect(send(small).body.toString()).toBe(small);
    const { send: sendTiny } = setup('openai-responses', 100);
    const leading = codexSessionBody(0, 0);
    expect(sendTiny(leading).body.toString()).toBe(leading);
  });

  it('#24.2 a Chat Completions request over the budget keeps the system message and the task, then the summary and whole newest turns', () => {
    const { send } = setup('openai-chat');
    const body = chatSessionBody(30, 4_000);
    const result = send(body);
    expect(result.compaction?.kind).toBe('compacted');
    expect(result.body.length / 4).toBeLessThanOrEqual(BUDGET);
    const original = (JSON.parse(body) as { messages: Json[] }).messages;
    const sent = (JSON.parse(result.body.toString()) as { messages: Json[] }).messages;
    expect(raw(sent.slice(0, 2))).toEqual(raw(original.slice(0, 2)));
    expect(sent[2]).toMatchObject({ role: 'user' });
    expect(String(sent[2]?.content)).toContain('Dense compacted the');
    expect(sent[3]?.role).toBe('assistant');
    expect(raw(sent.slice(-2))).toEqual(raw(original.slice(-2)));
  });
});
