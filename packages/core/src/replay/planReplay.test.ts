import { describe, expect, it } from 'vitest';
import { ai, human, toolCall, toolResult } from '../test-utils/historyBuilders.js';
import type { IContent } from '../services/history/IContent.js';
import { recordingPosition } from './oracle/exposureLedger.js';
import { planReplay, withReplayIds, type ReplayTurn } from './planReplay.js';

/** Turns as [kind, direct human texts, sent text, reply indices] for compact assertions. */
function shape(turns: readonly ReplayTurn[], contents: readonly IContent[]) {
  const text = (entry: IContent) => (entry.blocks[0]?.type === 'text' ? entry.blocks[0].text : '?');
  return turns.map((turn) => {
    if (turn.kind === 'record') return ['record', turn.direct.map((d) => text(d.entry))];
    const replies = turn.replies.map((r) => contents.indexOf(r.entry));
    if (turn.kind === 'continue') return ['continue', replies];
    return ['send', turn.direct.map((d) => text(d.entry)), text(turn.message.entry), replies];
  });
}

describe('planReplay', () => {
  it('gives every entry a replay id and keeps its other metadata', () => {
    const [entry] = withReplayIds([{ ...human('hi'), metadata: { timestamp: 5 } }]);
    expect(entry?.metadata).toEqual({ timestamp: 5, id: 'replay-0' });
  });

  it('one send per user message; tool rounds stay in its turn; responses are indexed by call id', () => {
    const recording = [
      human('fix it'),
      toolCall({ id: 'c1', name: 'read_file', parameters: { file_path: 'a' } }),
      toolResult({ id: 'c1', name: 'read_file', result: 'A' }),
      ai('done'),
    ];
    const plan = planReplay(recording);
    expect(shape(plan.turns, plan.contents)).toEqual([['send', [], 'fix it', [1, 3]]]);
    expect(plan.responses.get('c1')?.position).toBe(recordingPosition(2, 0));
    expect(plan.responses.get('c1')?.block.result).toBe('A');
  });

  it('earlier consecutive user messages are recorded directly and the last is sent', () => {
    const plan = planReplay([human('context'), human('more'), human('question'), ai('answer')]);
    expect(shape(plan.turns, plan.contents)).toEqual([
      ['send', ['context', 'more'], 'question', [3]],
    ]);
  });

  it('an AI entry after an AI entry without calls is a continuation', () => {
    const plan = planReplay([human('q'), ai('part 1'), ai('part 2'), ai('part 3')]);
    expect(shape(plan.turns, plan.contents)).toEqual([
      ['send', [], 'q', [1]],
      ['continue', [2]],
      ['continue', [3]],
    ]);
  });

  it('a user message after tool results ends the turn; a session may start with the model', () => {
    const plan = planReplay([
      ai('hello'),
      toolCall({ id: 'c1', name: 'glob', parameters: {} }),
      toolResult({ id: 'c1', name: 'glob', result: 'x' }),
      human('next'),
      toolCall({ id: 'c2', name: 'glob', parameters: {} }),
      human('bye'),
    ]);
    expect(shape(plan.turns, plan.contents)).toEqual([
      ['continue', [0]],
      ['continue', [1]],
      ['send', [], 'next', [4]],
      ['record', ['bye']],
    ]);
  });
});
