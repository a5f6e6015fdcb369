import { describe, expect, it } from 'vitest';
import { readAnthropicRequest } from '../wire/anthropicHistory.js';
import { ConversationStore } from './conversationStore.js';
import { densifyRequest } from '../densify/densifyRequest.js';
import { parseJsonSpans } from '../wire/jsonSpans.js';
import { planProxyEdits } from './planProxyEdits.js';
import { ProxyPlans } from './proxyPlans.js';
import { RequestReadCache } from '../wire/requestReadCache.js';
import { bigSessionTurns } from '../test-utils/bigSession.js';
import { anthropicBody, FILE_TEXT } from '../test-utils/wireRequests.js';

type Json = Record<string, unknown>;

const call = (id: string, name: string, input: Json): Json => ({
  role: 'assistant',
  content: [{ type: 'tool_use', id, name, input }],
});
const answer = (id: string, content: string, isError = false): Json => ({
  role: 'user',
  content: [
    {
      type: 'tool_result',
      tool_use_id: id,
      content,
      cache_control: { type: 'ephemeral' },
      ...(isError ? { is_error: true } : {}),
    },
  ],
});
const GO: Json = { role: 'user', content: [{ type: 'text', text: 'go' }] };
const READ: Json[] = [call('r', 'Read', { file_path: '/w/a.ts' }), answer('r', FILE_TEXT)];
const EDIT = call('e', 'Edit', { file_path: '/w/a.ts', old_string: 'a', new_string: 'b' });
const BASH: Json[] = [call('b', 'Bash', { command: 'npm test' }), answer('b', 'ok')];

/** The plans of consecutive requests of one conversation, and planProxyEdits on each. */
function plansOf(requests: readonly (readonly Json[])[]) {
  const reads = new RequestReadCache();
  const plans = new ProxyPlans();
  return requests.map((messages) => {
    const text = anthropicBody(messages);
    const read = reads.read({ api: 'anthropic', text, sessionId: 's' });
    const fresh = readAnthropicRequest(text, parseJsonSpans(text));
    if (read.outcome.kind !== 'history' || fresh.kind !== 'history') throw new Error('not read');
    const planned = plans.plan(read.outcome.wire, read).map((site) => site.messageIndex);
    return { planned, expected: planProxyEdits(fresh.wire).map((site) => site.messageIndex) };
  });
}

describe('ProxyPlans', () => {
  it('#24.4 a late answer completing a pending write among the new messages makes an earlier read stale', () => {
    const waiting: Json = { role: 'user', content: [{ type: 'text', text: 'wait' }] };
    const [before, after] = plansOf([
      [GO, ...READ, EDIT, waiting],
      [GO, ...READ, EDIT, waiting, { role: 'assistant', content: 'ok' }, answer('e', 'done')],
    ]);
    expect(before).toEqual({ planned: [], expected: [] });
    expect(after).toEqual({ planned: [2], expected: [2] });
  });

  it('#24.4 a re-read message that changed (the write now failed) is not taken for the decided one', () => {
    const [before, after] = plansOf([
      [GO, ...READ, EDIT, answer('e', 'done')],
      [GO, ...READ, EDIT, answer('e', 'failed', true), ...BASH],
    ]);
    expect(before).toEqual({ planned: [2], expected: [2] });
    expect(after).toEqual({ planned: [], expected: [] });
  });

  it('#24.4 requests that append only calls writing nothing reuse the decisions; a write runs optimize() again', () => {
    const store = new ConversationStore();
    const send = (body: string) =>
      densifyRequest({
        api: 'anthropic',
        body: Buffer.from(body),
        sessionId: 's',
        store,
        now: 0,
        pressureTokens: 1,
      });
    const [first, second] = bigSessionTurns(20_000, 2) as [string, string];
    const sent = [send(first), send(second), send(first), send(second)];
    expect(store.plans.counts).toEqual({ reused: 3, optimized: 1 });
    const fresh = new ConversationStore();
    const once = densifyRequest({ ...sentOptions(second), store: fresh });
    expect(sent[3]?.pointers).toBe(once.pointers);
    const edited = JSON.parse(second) as { messages: Json[] };
    edited.messages.push(EDIT, answer('e', 'done'));
    send(JSON.stringify(edited));
    expect(store.plans.counts).toEqual({ reused: 3, optimized: 2 });
  });
  it("#24.4 the sites reused from the previous request are this request's own site objects", () => {
    // A stale read, then neutral requests: the decisions are reused from the previous request.
    const messages = [GO, ...READ, EDIT, answer('e', 'done'), ...BASH];
    const reads = new RequestReadCache();
    const plans = new ProxyPlans();
    const readOf = (cache: RequestReadCache, text: string) => {
      const read = cache.read({ api: 'anthropic', text, sessionId: 's' });
      if (read.outcome.kind !== 'history') throw new Error('not read');
      return { read, wire: read.outcome.wire };
    };
    const first = readOf(reads, anthropicBody(messages));
    expect(plans.plan(first.wire, first.read)).toHaveLength(1);
    // The next request as the read cache reads it: the stale read's site is handed over.
    const text = anthropicBody([...messages, ...BASH]);
    const next = readOf(reads, text);
    const [reused] = plans.plan(next.wire, next.read);
    expect(reused).toBe(next.wire.sites[0]);
    expect(reused).toBe(first.wire.sites[0]);
    // The same request read afresh elsewhere but said to resume from the first: other objects,
    // so the previous answer is not taken for them.
    const elsewhere = readOf(new RequestReadCache(), text);
    const resumed = { ...elsewhere.read, resumedFrom: next.read.resumedFrom };
    const [own] = plans.plan(elsewhere.wire, resumed);
    expect(own).toBe(elsewhere.wire.sites[0]);
  });

  it('#24.4 a site of the previous request that this one lacks is never taken from it', () => {
    const READ_B: Json[] = [call('rb', 'Read', { file_path: '/w/b.ts' }), answer('rb', FILE_TEXT)];
    const EDIT_B = call('eb', 'Edit', { file_path: '/w/b.ts', old_string: 'a', new_string: 'b' });
    const messages = [GO, ...READ_B, EDIT_B, answer('eb', 'ok')];
    const plans = new ProxyPlans();
    const read = new RequestReadCache().read({
      api: 'anthropic',
      text: anthropicBody(messages),
      sessionId: 's',
    });
    if (read.outcome.kind !== 'history') throw new Error('not read');
    const { wire } = read.outcome;
    expect(plans.plan(wire, read).map((site) => site.callId)).toEqual(['rb']);
    // The same messages without the stale read's site, said to resume from that read with the
    // messages before the write's answer verified: the stale site is no site of this request.
    const lacking = { ...wire, sites: wire.sites.filter((site) => site.callId !== 'rb') };
    const resumed = { resumedFrom: { key: read.key ?? {}, messages: messages.length - 1 } };
    expect(plans.plan(lacking, resumed)).toEqual([]);
  });
});

function sentOptions(body: string) {
  return {
    api: 'anthropic' as const,
    body: Buffer.from(body),
    sessionId: 's',
    now: 0,
    pressureTokens: 1,
  };
}
