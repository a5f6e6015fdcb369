import { describe, expect, it } from 'vitest';
import { isShorterInTokens, shorterInTokens } from '../../core/compression/shorterInTokens.js';
import { countO200kTokens } from '../../services/history/TokenCounter.js';
import { ConversationStore } from './conversationStore.js';
import { densifyRequest } from '../densify/densifyRequest.js';
import { pointerVerdictAt, proxyPointer } from './proxyPointer.js';
import { readAnthropicRequest } from '../wire/anthropicHistory.js';
import { parseJsonSpans } from '../wire/jsonSpans.js';
import { anthropicBody, densifyOptions } from '../test-utils/wireRequests.js';

type Json = Record<string, unknown>;

/** A task-list tool's confirmation: 163 characters, 28 tokens, the same after every call. */
const CONFIRMATION =
  'Task list saved. Keep the list current as you work: mark each task done as soon as it is, and add new ones as they come up. Carry on with the tasks still open now.';
/** Call ids as Claude Code writes them: many tokens for their length. */
const ids = ['toolu_01Kq7ZpX3vWm9BnT4cYh2LdR', 'toolu_01Vx8QwE5rTy2UiO9pAs6DfG'];

const user = (text: string): Json => ({ role: 'user', content: [{ type: 'text', text }] });
const taskTurn = (id: string, step: number): Json[] => [
  {
    role: 'assistant',
    content: [{ type: 'tool_use', id, name: 'TodoWrite', input: { todos: [{ step }] } }],
  },
  { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: CONFIRMATION }] },
];

describe('#34.5 replies and pointers only when shorter in tokens', () => {
  it('#34.5 the rule: strictly fewer tokens, not fewer characters', () => {
    expect(isShorterInTokens({ original: 28, replacement: 27 })).toBe(true);
    expect(isShorterInTokens({ original: 28, replacement: 28 })).toBe(false);
    const reply = `[same output as call ${ids[0]} — that copy is still above] (original: \`dense recall r3f9a0c27b1\`)`;
    expect(reply.length).toBeLessThan(CONFIRMATION.length);
    expect(countO200kTokens(reply)).toBeGreaterThan(countO200kTokens(CONFIRMATION));
    expect(shorterInTokens(reply, CONFIRMATION)).toBe(false);
    expect(shorterInTokens(reply, CONFIRMATION.repeat(4))).toBe(true);
  });

  it('#34.5 a long original is decided by its prefix when that already holds more tokens, as the whole would', () => {
    const line = (i: number) => `export const value${i} = computeSomething(${i}, "label ${i}");`;
    const long = Array.from({ length: 2_000 }, (_, i) => line(i)).join('\n');
    expect(shorterInTokens('short', long)).toBe(true);
    expect(shorterInTokens(long, long)).toBe(false);
    expect(shorterInTokens(long.slice(0, -1), long)).toBe(
      countO200kTokens(long.slice(0, -1)) < countO200kTokens(long),
    );
  });

  it('#34.5 a repeated short confirmation (fewer tokens than the reply naming its call) goes out as it is', () => {
    const store = new ConversationStore();
    const body = anthropicBody([
      user('plan'),
      ...taskTurn(ids[0] ?? '', 1),
      ...taskTurn(ids[1] ?? '', 2),
    ]);
    const out = densifyRequest(densifyOptions(body, { store }));
    expect(out.replies).toBe(0);
    expect(out.body.toString()).toBe(body);
  });

  it('#34.5 the same confirmation four times over (more tokens than the reply) is still replied to', () => {
    const store = new ConversationStore();
    const long = CONFIRMATION.repeat(4);
    const turn = (id: string): Json[] => [
      { role: 'assistant', content: [{ type: 'tool_use', id, name: 'TodoWrite', input: {} }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: long }] },
    ];
    const body = anthropicBody([user('plan'), ...turn(ids[0] ?? ''), ...turn(ids[1] ?? '')]);
    expect(densifyRequest(densifyOptions(body, { store })).replies).toBe(1);
  });

  it('#34.5 a pointer takes the read specifics only when they keep it shorter in tokens, and pays only then', () => {
    // A read of four short declarations padded with blanks: many characters, few tokens. The
    // pointer naming them is far shorter in characters but no shorter in tokens.
    const read = Array.from(
      { length: 4 },
      (_, i) => `${String(i + 1).padStart(6)}\texport const v${i} = ${i};${' '.repeat(200)}`,
    ).join('\n');
    const bare = proxyPointer('r0123456789');
    expect(proxyPointer('r0123456789', read)).toBe(bare);
    expect(shorterInTokens(bare, read)).toBe(true);
    const body = anthropicBody([
      user('look'),
      {
        role: 'assistant',
        content: [{ type: 'tool_use', id: 'r1', name: 'Read', input: { file_path: '/w/a.ts' } }],
      },
      {
        role: 'user',
        content: [{ type: 'tool_result', tool_use_id: 'r1', content: 'ok: 1 line' }],
      },
    ]);
    const wire = readAnthropicRequest(body, parseJsonSpans(body));
    if (wire.kind !== 'history') throw new Error('no history');
    const site = wire.wire.sites[0];
    if (site === undefined) throw new Error('no site');
    expect(pointerVerdictAt(wire.wire, site).verdict).toBe('n');
  });
});
