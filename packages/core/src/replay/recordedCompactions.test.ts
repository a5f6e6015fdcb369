import { describe, expect, it } from 'vitest';
import { human, readFile } from '../test-utils/historyBuilders.js';
import type { IContent } from '../services/history/IContent.js';
import { countRecordedCompactions, recordedSummaryOutputText } from './recordedCompactions.js';

const summary = (text: string): IContent => ({ ...human(text), metadata: { isSummary: true } });

describe('countRecordedCompactions', () => {
  it('#12 counts summaries the agent wrote mid-session, not one a session starts from', () => {
    expect(countRecordedCompactions([human('go'), ...readFile('r', 'a.ts', 'x')])).toBe(0);
    expect(countRecordedCompactions([summary('earlier work'), human('go')])).toBe(0);
    expect(
      countRecordedCompactions([human('go'), summary('s1'), human('more'), summary('s2')]),
    ).toBe(2);
  });
});

describe('recordedSummaryOutputText', () => {
  it('#32.2 leaves out the blocks that restate messages kept from before the boundary', () => {
    const codex: IContent = {
      speaker: 'human',
      blocks: [
        { type: 'text', text: 'Fix the failing date test.' },
        { type: 'text', text: 'Also update the changelog.' },
        { type: 'text', text: '[the compaction’s own summary]' },
      ],
      metadata: { isSummary: true, keptMessageBlocks: [0, 1] },
    };
    expect(recordedSummaryOutputText(codex)).toBe('[the compaction’s own summary]');
    expect(recordedSummaryOutputText(summary('earlier work'))).toBe('earlier work');
  });
});
