import { describe, expect, it } from 'vitest';
import { ai, human } from '../../../../test-utils/historyBuilders.js';
import { textBlock, type IContent } from '../../../../services/history/IContent.js';
import { DensityDraft, withoutBlocks } from './densityEdits.js';

describe('density edits', () => {
  it('merge: removals accumulate, later replacements win, removal wins over replacement', () => {
    const history = [human('0'), human('1'), human('2'), human('3')];
    const a = human('a');
    const b = human('b');
    const draft = new DensityDraft(history);
    draft.merge({
      removals: new Set([1]),
      replacements: new Map<number, IContent>([
        [2, a],
        [3, a],
      ]),
    });
    draft.merge({
      removals: new Set([3]),
      replacements: new Map<number, IContent>([
        [1, b],
        [2, b],
      ]),
    });
    const { removals, replacements } = draft.edits();
    expect(removals).toEqual([1, 3]);
    expect([...replacements]).toEqual([[2, b]]);
  });

  it('slots show a later pass the history as earlier passes left it, without touching the input', () => {
    const history = Object.freeze([human('0'), human('1'), human('2')]);
    const replaced = human('1!');
    const draft = new DensityDraft(history);
    expect(draft.slots).toEqual(history);
    draft.merge({ removals: new Set([0]), replacements: new Map([[1, replaced]]) });
    expect(draft.slots).toEqual([undefined, replaced, history[2]]);
    expect(history[0]?.blocks).toEqual([textBlock('0')]);
  });

  it('edits come out sorted by index', () => {
    const history = [human('0'), human('1'), human('2'), human('3')];
    const draft = new DensityDraft(history);
    draft.merge({
      removals: new Set([3, 0]),
      replacements: new Map([
        [2, human('x')],
        [1, human('y')],
      ]),
    });
    const { removals, replacements } = draft.edits();
    expect(removals).toEqual([0, 3]);
    expect([...replacements.keys()]).toEqual([1, 2]);
  });

  it('withoutBlocks keeps other blocks and metadata, or says remove when nothing visible is left', () => {
    const entry: IContent = {
      ...ai('x'),
      blocks: [textBlock(' '), textBlock('keep'), textBlock('go')],
      metadata: { id: 'e' },
    };
    expect(withoutBlocks(entry, new Set([2]))).toEqual({
      speaker: 'ai',
      blocks: [textBlock(' '), textBlock('keep')],
      metadata: { id: 'e' },
    });
    expect(withoutBlocks(entry, new Set([1, 2]))).toBeUndefined();
  });
});
