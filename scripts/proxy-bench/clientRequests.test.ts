import { answerCompaction } from '../../packages/core/src/proxy/budget/answerCompaction.js';
import { describe, expect, it } from 'vitest';
import type { IContent } from '@dense/core';
import {
  CLAUDE_COMPACTION_INSTRUCTION,
  clientEvents,
  clientRequest,
  historyBefore,
  recordedReply,
} from './clientRequests.js';

const T0 = Date.UTC(2026, 0, 1);
const human = (text: string, isSummary = false): IContent => ({
  speaker: 'human',
  blocks: [{ type: 'text', text }],
  ...(isSummary ? { metadata: { isSummary } } : {}),
});
const call = (id: string, at: number): IContent => ({
  speaker: 'ai',
  blocks: [{ type: 'tool_call', id, name: 'read_file', parameters: { file_path: '/w/a.ts' } }],
  metadata: { timestamp: T0 + at },
});
const result = (id: string, text: string): IContent => ({
  speaker: 'tool',
  blocks: [{ type: 'tool_response', callId: id, toolName: 'read_file', result: text }],
});
const answer = (text: string, at: number): IContent => ({
  speaker: 'ai',
  blocks: [{ type: 'text', text }],
  metadata: { timestamp: T0 + at },
});

/** Read, answer, compaction, read, answer (synthetic). */
const SESSION: IContent[] = [
  human('fix a.ts'),
  call('r1', 1_000),
  result('r1', 'const a = 1;'),
  answer('done', 400_000),
  human('summary of the work so far', true),
  call('r2', 500_000),
  result('r2', 'const a = 2;'),
  answer('done again', 501_000),
];
const OPTIONS = {
  api: 'anthropic',
  model: 'claude-test',
  prefix: { systemTokens: 500, toolTokens: 1_400 },
} as const;

describe('#24.5 clientRequests: the Claude Code request sequence', () => {
  it('one event per model call at its recorded time, and the recorded compaction', () => {
    expect(clientEvents(SESSION)).toEqual([
      { kind: 'call', index: 1, at: T0 + 1_000 },
      { kind: 'call', index: 3, at: T0 + 400_000 },
      { kind: 'compaction', index: 4, at: T0 + 401_000 },
      { kind: 'call', index: 5, at: T0 + 500_000 },
      { kind: 'call', index: 7, at: T0 + 501_000 },
    ]);
  });

  it("carries Claude Code's breakpoints: system blocks 2 and 3 and the last block, none on tools", () => {
    const body = clientRequest(historyBefore(SESSION, 3, new Set()), OPTIONS);
    const system = body.system as { cache_control?: unknown }[];
    expect(system.map((block) => block.cache_control !== undefined)).toEqual([false, true, true]);
    expect(JSON.stringify(body.tools)).not.toContain('cache_control');
    const messages = body.messages as { role: string; content: Record<string, unknown>[] }[];
    expect(messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(messages[1]?.content[0]).toMatchObject({
      type: 'tool_use',
      name: 'Read',
      input: { file_path: '/w/a.ts' },
    });
    expect(messages[2]?.content).toEqual([
      {
        type: 'tool_result',
        tool_use_id: 'r1',
        content: 'const a = 1;',
        cache_control: { type: 'ephemeral' },
      },
    ]);
    expect(JSON.stringify(messages[0])).not.toContain('cache_control');
  });

  it('after a compaction the side that compacted starts from the summary; the other keeps everything', () => {
    const compacted = historyBefore(SESSION, 7, new Set([4]));
    expect(compacted[0]).toBe(SESSION[4]);
    expect(compacted).toHaveLength(3);
    const kept = historyBefore(SESSION, 7, new Set());
    expect(kept).toHaveLength(6);
    expect(kept).not.toContain(SESSION[4]);
  });

  it("#33.5 a side whose compaction Dense answered holds Dense's summary in the recorded one's place", () => {
    const dense = human('Dense summary: the task and the reads so far.', true);
    const held = historyBefore(SESSION, 7, new Set([4]), new Map([[4, dense]]));
    expect(held[0]).toBe(dense);
    expect(held).toHaveLength(3);
    expect(held).not.toContain(SESSION[4]);
    expect(held.slice(1)).toEqual(historyBefore(SESSION, 7, new Set([4])).slice(1));
  });

  it('the compaction request is the history so far plus the summarize instruction, answered by the summary', () => {
    const body = clientRequest(historyBefore(SESSION, 4, new Set()), {
      ...OPTIONS,
      compaction: true,
    });
    const messages = body.messages as { role: string; content: Record<string, unknown>[] }[];
    // As the real client sends it: the prompt last and unmarked (#34.5 recognizes only that shape).
    expect(messages.at(-1)?.content.at(-1)).toEqual({
      type: 'text',
      text: CLAUDE_COMPACTION_INSTRUCTION,
    });
    const reply = answerCompaction('anthropic', Buffer.from(JSON.stringify(body)));
    expect(reply).toBeDefined();
    expect(recordedReply(SESSION[4] as IContent, 'anthropic')).toEqual({
      kind: 'stream',
      text: ['summary of the work so far'],
      toolCalls: [],
    });
  });

  it('Codex: Responses input items, no breakpoints', () => {
    const body = clientRequest(historyBefore(SESSION, 3, new Set()), {
      ...OPTIONS,
      api: 'openai-responses',
    });
    expect(body.input).toEqual([
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'fix a.ts' }] },
      {
        type: 'function_call',
        call_id: 'r1',
        name: 'read_file',
        arguments: JSON.stringify({ file_path: '/w/a.ts' }),
      },
      { type: 'function_call_output', call_id: 'r1', output: 'const a = 1;' },
    ]);
    expect(JSON.stringify(body)).not.toContain('cache_control');
  });
});
