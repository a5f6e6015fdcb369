/** What the recorded agent restored after its own compaction, planned from the replay's state. */
import { describe, expect, it } from 'vitest';
import { human, readFile, toolRoundTrip } from '../test-utils/historyBuilders.js';
import type { IContent } from '../services/history/IContent.js';
import { compareVersions, planReattachments, REATTACHED_REASON } from './planReattachments.js';

const numbered = (lines: readonly string[], from = 1) =>
  lines.map((line, i) => `${String(from + i).padStart(6)}→${line}`).join('\n');
const summary = (version?: string): IContent => ({
  ...human('Summary of the earlier conversation.'),
  metadata: { isSummary: true, ...(version === undefined ? {} : { agentVersion: version }) },
});
const texts = (entry: IContent | undefined) =>
  entry?.blocks.map((block) => (block.type === 'text' ? block.text : '')) ?? [];

/** Six files read in order f1..f6, f2 then edited, a todo list written last. */
function session(version?: string): IContent[] {
  const reads = [1, 2, 3, 4, 5, 6].flatMap((n) =>
    readFile(`r${n}`, `/p/f${n}.ts`, numbered([`const f${n} = ${n};`, 'export {};'])),
  );
  return [
    human('Start'),
    ...reads,
    ...toolRoundTrip(
      'e2',
      'replace',
      { file_path: '/p/f2.ts', old_string: 'const f2 = 2;', new_string: 'const f2 = 20;' },
      'The file has been updated.',
    ),
    ...toolRoundTrip(
      't1',
      'todo_write',
      { todos: [{ content: 'ship it', status: 'pending' }] },
      'ok',
    ),
    summary(version),
  ];
}

describe('#25.1 re-attachments after the agent’s own compaction (planReattachments)', () => {
  it('#25.1 Claude Code up to 1.0.77 restores the five most recently touched files, numbered, then its todo list', () => {
    const contents = session('1.0.77');
    const restored = planReattachments(contents).get(contents.at(-1) as IContent);
    expect(restored?.metadata).toMatchObject({ synthetic: true, reason: REATTACHED_REASON });
    expect(texts(restored)).toEqual([
      `/p/f2.ts\n${numbered(['const f2 = 20;', 'export {};'])}`,
      `/p/f6.ts\n${numbered(['const f6 = 6;', 'export {};'])}`,
      `/p/f5.ts\n${numbered(['const f5 = 5;', 'export {};'])}`,
      `/p/f4.ts\n${numbered(['const f4 = 4;', 'export {};'])}`,
      `/p/f3.ts\n${numbered(['const f3 = 3;', 'export {};'])}`,
      JSON.stringify([{ content: 'ship it', status: 'pending' }]),
    ]);
  });

  it('#25.1 newer versions, and summaries without a version, restore nothing', () => {
    for (const version of ['1.0.113', '2.1.12', undefined]) {
      expect(planReattachments(session(version)).size).toBe(0);
    }
  });

  it('#25.1 a file read in windows is restored whole, its lines where the windows showed them', () => {
    const contents = [
      human('Start'),
      ...toolRoundTrip(
        'a',
        'read_file',
        { file_path: '/p/big.ts', limit: 2 },
        numbered(['l1', 'l2']),
      ),
      ...toolRoundTrip(
        'b',
        'read_file',
        { file_path: '/p/big.ts', offset: 3 },
        numbered(['l3'], 3),
      ),
      summary('1.0.70'),
    ];
    const restored = planReattachments(contents).get(contents.at(-1) as IContent);
    expect(texts(restored)).toEqual([`/p/big.ts\n${numbered(['l1', 'l2', 'l3'])}`]);
  });

  it('#25.1 versions compare by number, not as text', () => {
    expect(compareVersions('1.0.113', '1.0.77')).toBe(1);
    expect(compareVersions('1.0.70', '1.0.77')).toBe(-1);
    expect(compareVersions('1.0.77', '1.0.77')).toBe(0);
  });
});
