import { describe, expect, it } from 'vitest';
import { textBlock, toolCallBlock, toolResponseBlock } from '../services/history/IContent.js';
import { ContentAccumulator } from './ContentAccumulator.js';
import { toolLinkProblems } from './toolLinkProblems.js';

describe('ContentAccumulator', () => {
  it('keeps thinking when asked', () => {
    const acc = new ContentAccumulator(true);
    acc.ai([{ type: 'thinking', thought: 'hmm' }]);
    expect(acc.build()).toEqual([
      { speaker: 'ai', blocks: [{ type: 'thinking', thought: 'hmm' }] },
    ]);
  });

  it('merges pieces of one reply into one AI entry even with results recorded between them', () => {
    const acc = new ContentAccumulator();
    acc.human('go');
    acc.ai([textBlock('first')], { groupKey: 'm1' });
    acc.ai([toolCallBlock('a', 'read_file', { file_path: 'x' })], { groupKey: 'm1' });
    acc.toolResponse({ callId: 'a', result: 'A' });
    acc.ai([toolCallBlock('b', 'read_file', { file_path: 'y' })], { groupKey: 'm1' });
    acc.toolResponse({ callId: 'b', result: 'B' });
    acc.ai([textBlock('next reply')], { groupKey: 'm2' });
    const built = acc.build();
    expect(built.map((entry) => entry.speaker)).toEqual(['human', 'ai', 'tool', 'ai']);
    expect(built[1]?.blocks.map((block) => block.type)).toEqual(['text', 'tool_call', 'tool_call']);
    expect(built[2]?.blocks).toEqual([
      { type: 'tool_response', callId: 'a', toolName: 'read_file', result: 'A' },
      { type: 'tool_response', callId: 'b', toolName: 'read_file', result: 'B' },
    ]);
  });

  it('does not merge across a human message', () => {
    const acc = new ContentAccumulator();
    acc.ai([textBlock('one')], { groupKey: 'm1' });
    acc.human('interrupt');
    acc.ai([textBlock('two')], { groupKey: 'm1' });
    expect(acc.build().map((entry) => entry.speaker)).toEqual(['ai', 'human', 'ai']);
  });

  it('renames a reused call id and links later results to the newest call', () => {
    const acc = new ContentAccumulator();
    acc.ai([toolCallBlock('c', 'run_shell_command', { command: 'ls' })]);
    acc.toolResponse({ callId: 'c', result: 'first' });
    acc.ai([toolCallBlock('c', 'run_shell_command', { command: 'pwd' })]);
    acc.toolResponse({ callId: 'c', result: 'second' });
    const built = acc.build();
    expect(built[2]?.blocks[0]).toMatchObject({ type: 'tool_call', id: 'c#2' });
    expect(built[3]?.blocks[0]).toMatchObject({ callId: 'c#2', result: 'second' });
  });

  it('#12.3 answers parallel calls that share an id in call order, each result to its own call', () => {
    const acc = new ContentAccumulator();
    acc.ai([
      toolCallBlock('c', 'run_shell_command', { command: 'ls' }),
      toolCallBlock('c', 'run_shell_command', { command: 'pwd' }),
    ]);
    acc.toolResponse({ callId: 'c', result: 'first' });
    acc.toolResponse({ callId: 'c', result: 'second' });
    const built = acc.build();
    expect(built[0]?.blocks.map((b) => (b.type === 'tool_call' ? b.id : ''))).toEqual(['c', 'c#2']);
    expect(built[1]?.blocks).toMatchObject([
      { callId: 'c', result: 'first' },
      { callId: 'c#2', result: 'second' },
    ]);
  });

  it('#12.3 gives own-format entries with a reused id unique ids; results follow by position', () => {
    const acc = new ContentAccumulator();
    const call = (command: string) => ({
      speaker: 'ai' as const,
      blocks: [toolCallBlock('call_1', 'run_shell_command', { command })],
    });
    const result = (text: string) => ({
      speaker: 'tool' as const,
      blocks: [
        toolResponseBlock({ callId: 'call_1', toolName: 'run_shell_command', result: text }),
      ],
    });
    for (const entry of [call('ls'), result('one'), call('pwd'), result('two')]) acc.append(entry);
    const ids = acc
      .build()
      .flatMap((e) =>
        e.blocks.map((b) =>
          b.type === 'tool_call' ? b.id : b.type === 'tool_response' ? b.callId : '',
        ),
      );
    expect(ids).toEqual(['call_1', 'call_1', 'call_1#2', 'call_1#2']);
    expect(toolLinkProblems(acc.build())).toEqual([]);
  });

  it('refuses a result for a call it never saw', () => {
    const acc = new ContentAccumulator();
    expect(acc.toolResponse({ callId: 'ghost', result: 'x' })).toBe(false);
    expect(acc.build()).toEqual([]);
  });

  it('drops blank text and, unless asked to keep it, thinking', () => {
    const acc = new ContentAccumulator();
    acc.human('   ');
    acc.ai([{ type: 'thinking', thought: 'hmm' }, textBlock(' ')]);
    acc.ai([{ type: 'thinking', thought: 'hmm' }, textBlock('answer')]);
    expect(acc.build()).toEqual([{ speaker: 'ai', blocks: [textBlock('answer')] }]);
  });

  it('builds fresh values that later additions do not change', () => {
    const acc = new ContentAccumulator();
    acc.ai([textBlock('a')], { groupKey: 'k' });
    const first = acc.build();
    acc.ai([textBlock('b')], { groupKey: 'k' });
    expect(first[0]?.blocks).toHaveLength(1);
    expect(acc.build()[0]?.blocks).toHaveLength(2);
  });
});
