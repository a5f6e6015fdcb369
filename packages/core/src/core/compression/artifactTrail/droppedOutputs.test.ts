/** Every output a compression drops stays recallable: its recall id is in the trail. */
import { describe, expect, it } from 'vitest';
import { ai, human, readFile, toolRoundTrip } from '../../../test-utils/historyBuilders.js';
import type { IContent, ToolResponseBlock } from '../../../services/history/IContent.js';
import { InMemoryRecallStore } from '../../../services/recall/RecallStore.js';
import { recallIdOfResponse } from '../recallPointers.js';
import { ArtifactTrailKeeper, isTrailEntry } from './ArtifactTrailKeeper.js';
import { collectArtifacts } from './collectArtifacts.js';

/** A short shell read (258 characters, far under the old 400-character floor). */
const GREP_OUTPUT = Array.from(
  { length: 6 },
  (_, i) => `src/app.ts:${10 + i}: const flag${i} = true;`,
)
  .join('\n')
  .padEnd(258, '.');

const GREP = toolRoundTrip(
  'g1',
  'run_shell_command',
  { command: 'cat src/app.ts | grep flag' },
  GREP_OUTPUT,
);

const responseOf = (entry: IContent | undefined): ToolResponseBlock => {
  const block = entry?.blocks.find((b) => b.type === 'tool_response');
  if (block?.type !== 'tool_response') throw new Error('no tool response');
  return block;
};

const trailText = (history: readonly IContent[]): string =>
  history
    .filter((entry) => isTrailEntry(entry) && entry.speaker === 'human')
    .flatMap((entry) => entry.blocks.map((b) => (b.type === 'text' ? b.text : '')))
    .join('');

describe('#32.6 every output a compression drops gets a recall id', () => {
  it('#32.6 a short shell output dropped by a second compression: its id is in the trail and recall returns it', async () => {
    const store = new InMemoryRecallStore();
    const round1: IContent[] = [human('find the flags'), ...GREP, ai('six flags')];
    for (const entry of round1) store.record(entry);
    const keeper = new ArtifactTrailKeeper();
    const input = { todos: [], workspaceRoot: '/w', contextLimit: 32_000 };
    // First compression: the grep round stays whole in the kept history.
    const first = keeper.historyWithTrail({ ...input, before: round1, after: round1 });
    const id = recallIdOfResponse(responseOf(GREP[1]));
    expect(trailText(first)).not.toContain(id);
    // Second compression drops it whole.
    const round2 = [human('now the tests'), ai('they pass')];
    const second = keeper.historyWithTrail({
      ...input,
      before: [...first, ...round2],
      after: round2,
    });
    expect(trailText(second)).toContain(`\`cat src/app.ts | grep flag\` → ok; recall id ${id}`);
    expect(await store.lookup(id)).toEqual({ kind: 'found', content: GREP_OUTPUT });
  });

  it('#32.6 every output with text has an id, whatever its length; other tools go to results', () => {
    const history: IContent[] = [
      ...toolRoundTrip('s1', 'run_shell_command', { command: 'true' }, ''),
      ...toolRoundTrip('s2', 'run_shell_command', { command: 'echo hi' }, 'hi'),
      ...toolRoundTrip('f1', 'glob', { pattern: '**/*.ts' }, 'src/a.ts'),
      ...readFile('r1', '/w/src/a.ts', 'x'),
    ];
    const artifacts = collectArtifacts(history, '/w');
    const idOf = (entry: IContent | undefined) => recallIdOfResponse(responseOf(entry));
    expect(artifacts.commands.get('true')).toEqual({ status: 'ok', recallIds: [] });
    expect(artifacts.commands.get('echo hi')).toEqual({
      status: 'ok',
      recallIds: [idOf(history[3])],
    });
    expect(artifacts.results.get('glob "**/*.ts"')).toEqual({
      status: 'ok',
      recallIds: [idOf(history[5])],
    });
    expect(artifacts.files.get('src/a.ts')?.recallIds).toEqual([idOf(history[7])]);
    expect(artifacts.results.size).toBe(1);
  });

  it('#32.6 a command run again keeps the ids of its last few runs', () => {
    const history = Array.from({ length: 8 }, (_, i) =>
      toolRoundTrip(
        `t${i}`,
        'run_shell_command',
        { command: 'npm test' },
        `run ${i}\nExit Code: 1`,
      ),
    ).flat();
    const ids = collectArtifacts(history, '/w').commands.get('npm test')?.recallIds ?? [];
    expect(ids).toHaveLength(6);
    expect(ids.at(-1)).toBe(recallIdOfResponse(responseOf(history[15])));
  });

  it("#32.6 a result density already pruned: the pointer's id goes to the trail", () => {
    const pointer = '[Result pruned (old result) — recall id r0123456789 to see the original]';
    const history = toolRoundTrip('p1', 'run_shell_command', { command: 'make' }, pointer);
    expect(collectArtifacts(history, '/w').commands.get('make')).toEqual({
      status: '',
      recallIds: ['r0123456789'],
    });
  });

  it('#32.6 a file read in many windows since its last write keeps the id of every window', () => {
    const history = Array.from({ length: 9 }, (_, i) =>
      toolRoundTrip(
        `w${i}`,
        'read_file',
        { file_path: '/w/src/big.ts', offset: i * 200, limit: 200 },
        `window ${i}`,
      ),
    ).flat();
    const ids = collectArtifacts(history, '/w').files.get('src/big.ts')?.recallIds ?? [];
    expect(ids).toHaveLength(9);
  });
});
