import { describe, expect, it } from 'vitest';
import { parseJsonSpans } from '../wire/jsonSpans.js';
import { budgetProxy } from '../test-utils/budgetProxy.js';
import { codexLeadingItems, codexRound } from '../test-utils/codexSession.js';
import { fileText } from '../test-utils/longSession.js';
import { openaiLayout } from './compactionLayout.js';

type Json = Record<string, unknown>;

const BUDGET = 20_000;
const LATE_DEVELOPER: Json = {
  type: 'message',
  role: 'developer',
  content: [{ type: 'input_text', text: 'Approval policy changed: never ask.' }],
};

/** A Codex-shaped session with a developer message after round `lateAt`. */
function responsesBody(rounds: number, lateAt: number): string {
  const input = codexLeadingItems();
  for (let round = 0; round < rounds; round++) {
    input.push(...codexRound(round, 4_000, { reasoning: true }));
    if (round === lateAt) input.push(LATE_DEVELOPER);
  }
  return JSON.stringify({ model: 'gpt-6.1-sol', stream: true, input, store: false });
}

function chatBody(rounds: number, lateAt: number, lateText = 'Mode: read-only.'): string {
  const messages: Json[] = [
    { role: 'system', content: 'You are a coding agent.' },
    { role: 'user', content: 'Read every module.' },
  ];
  for (let round = 0; round < rounds; round++) {
    const id = `call_read_${round}`;
    const call = {
      id,
      type: 'function',
      function: { name: 'read_file', arguments: `{"n":${round}}` },
    };
    messages.push(
      { role: 'assistant', content: null, tool_calls: [call] },
      { role: 'tool', tool_call_id: id, content: fileText(round, 4_000) },
    );
    if (round === lateAt) messages.push({ role: 'system', content: lateText });
  }
  return JSON.stringify({ model: 'gpt-4o', messages, stream: true });
}

const raw = (items: readonly unknown[]): string[] => items.map((item) => JSON.stringify(item));

/** `body` sent once over the budget: it must compact and fit; its wire items before and after. */
function compactedOnce(api: 'openai-chat' | 'openai-responses', body: string) {
  const result = budgetProxy({ api, budget: BUDGET }).send(body);
  expect(result.compaction?.kind).toBe('compacted');
  expect(result.body.length / 4).toBeLessThanOrEqual(BUDGET);
  const key = api === 'openai-chat' ? 'messages' : 'input';
  const itemsOf = (text: string) => (JSON.parse(text) as Record<string, Json[]>)[key] ?? [];
  return { original: itemsOf(body), sent: itemsOf(result.body.toString()) };
}

/** Every call in `items` has its output in `items`, and every output its call. */
function callsPaired(items: readonly Json[]): boolean {
  const calls = items.filter((i) => i.type === 'custom_tool_call').map((i) => i.call_id);
  const outputs = items.filter((i) => i.type === 'custom_tool_call_output').map((i) => i.call_id);
  return JSON.stringify(calls) === JSON.stringify(outputs);
}

describe('compaction layout: pinned items late in the history', () => {
  it('#24.1 the layout starts at the first model output, not after the last pinned item', () => {
    const root = parseJsonSpans(responsesBody(3, 1));
    const layout = openaiLayout(root, 'openai-responses');
    expect(layout.start).toBe(codexLeadingItems().length);
    expect(layout.turns.length).toBeGreaterThan(2);
  });

  it('#24.1 a pinned item inside a model run does not split it: no cut between a reasoning item and its call', () => {
    const input = [
      ...codexLeadingItems(),
      ...codexRound(0, 10, { reasoning: true }),
      { type: 'reasoning', summary: [], encrypted_content: 'enc-1' },
      LATE_DEVELOPER,
      ...codexRound(1, 10),
    ];
    const root = parseJsonSpans(JSON.stringify({ model: 'm', input }));
    const layout = openaiLayout(root, 'openai-responses');
    const leading = codexLeadingItems().length;
    expect(layout.turns).toEqual([
      { first: leading, role: 'assistant' },
      { first: leading + 2, role: 'user' },
      { first: leading + 3, role: 'assistant' },
      { first: leading + 6, role: 'user' },
    ]);
  });

  it('#24.1 a Responses history with a late developer message still compacts under the budget, the message kept once and unchanged, calls with their outputs', () => {
    const { original, sent } = compactedOnce('openai-responses', responsesBody(30, 20));
    const leading = codexLeadingItems().length;
    expect(raw(sent.slice(0, leading))).toEqual(raw(original.slice(0, leading)));
    const late = JSON.stringify(LATE_DEVELOPER);
    expect(raw(sent).filter((item) => item === late)).toHaveLength(1);
    expect(callsPaired(sent)).toBe(true);
    expect(raw(sent.slice(-3))).toEqual(raw(original.slice(-3)));
  });

  it('#24.1 the standing compaction with a kept developer message repeats the same bytes on the next request', () => {
    const { send } = budgetProxy({ api: 'openai-responses', budget: BUDGET });
    const first = send(responsesBody(30, 20));
    const second = send(responsesBody(31, 20));
    expect(first.compaction?.kind).toBe('compacted');
    expect(second.compaction?.kind).toBe('kept');
    expect(second.prefixStable).toBe(true);
  });

  it('#24.1 a Chat Completions history with a late system message still compacts under the budget and keeps it', () => {
    const { sent } = compactedOnce('openai-chat', chatBody(30, 20));
    expect(sent.filter((m) => m.content === 'Mode: read-only.')).toHaveLength(1);
    expect(sent[0]).toEqual({ role: 'system', content: 'You are a coding agent.' });
  });

  it('#24.1 a standing compaction carrying a large pinned item is judged at its real size: the next request over the budget compacts further', () => {
    const lateText = `Project rules: ${'keep every public name stable; '.repeat(1_300)}`;
    const proxy = budgetProxy({ api: 'openai-chat', budget: BUDGET });
    const first = proxy.send(chatBody(30, 1, lateText));
    expect(first.compaction?.kind).toBe('compacted');
    const second = proxy.send(chatBody(40, 1, lateText));
    expect(second.body.toString()).toContain('keep every public name stable');
    expect(second.body.length / 4).toBeLessThanOrEqual(BUDGET);
  });
});
