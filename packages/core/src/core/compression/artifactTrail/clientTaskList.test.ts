import { describe, expect, it } from 'vitest';
import type { IContent } from '../../../services/history/IContent.js';
import { human, toolRoundTrip } from '../../../test-utils/historyBuilders.js';
import { compactionSummary } from '../../../proxy/budget/compactionSummary.js';
import { clientTaskList } from './clientTaskList.js';
import { ArtifactTrailKeeper } from './ArtifactTrailKeeper.js';
import type { Todo } from '../../../tools/todo-schemas.js';

const create = (id: string, n: number, subject: string) =>
  toolRoundTrip(
    id,
    'TaskCreate',
    { subject, description: `${subject}, in detail` },
    `Task #${n} created successfully: ${subject}`,
  );
const update = (id: string, taskId: string, fields: Record<string, unknown>) =>
  toolRoundTrip(id, 'TaskUpdate', { taskId, ...fields }, `Updated task #${taskId}`);

describe('clientTaskList (#33.2)', () => {
  it('#33.2 Claude Code 2.x TaskCreate/TaskUpdate calls rebuild the list, ids from the client results', () => {
    const entries: IContent[] = [
      ...create('a', 1, 'Reproduce the rounding bug'),
      ...create('b', 2, 'Fix the ledger total'),
      ...create('c', 3, 'Drop the temp table'),
      ...update('d', '1', { status: 'completed' }),
      ...update('e', '2', { status: 'in_progress', subject: 'Fix the ledger total and tax' }),
      ...update('f', '3', { status: 'deleted' }),
    ];
    expect(clientTaskList(entries)).toEqual([
      { id: '1', content: 'Reproduce the rounding bug', status: 'completed' },
      { id: '2', content: 'Fix the ledger total and tax', status: 'in_progress' },
    ]);
  });

  it('#33.2 TodoWrite, write_todos and Codex update_plan give the whole list of their latest call', () => {
    const todo = toolRoundTrip(
      'a',
      'TodoWrite',
      { todos: [{ content: 'old', status: 'pending' }] },
      'ok',
    );
    const gemini = toolRoundTrip(
      'b',
      'write_todos',
      { todos: [{ description: 'Write the parser', status: 'cancelled' }] },
      'ok',
    );
    const plan = toolRoundTrip(
      'c',
      'update_plan',
      JSON.stringify({
        plan: [
          { step: 'Add the flag', status: 'in_progress' },
          { step: 'Test it', status: 'pending' },
        ],
      }),
      'Plan updated',
    );
    expect(clientTaskList([...todo, ...gemini])).toEqual([
      { id: '1', content: 'Write the parser', status: 'completed' },
    ]);
    expect(clientTaskList([...todo, ...plan])).toEqual([
      { id: '1', content: 'Add the flag', status: 'in_progress' },
      { id: '2', content: 'Test it', status: 'pending' },
    ]);
  });

  it('#33.2 only the given entries count: the list as of a cut ignores later calls', () => {
    const before = [...create('a', 1, 'Migrate the schema')];
    const after = [...update('b', '1', { status: 'completed' })];
    expect(clientTaskList(before)).toEqual([
      { id: '1', content: 'Migrate the schema', status: 'pending' },
    ]);
    expect(clientTaskList([...before, ...after])[0]?.status).toBe('completed');
    expect(clientTaskList([])).toEqual([]);
  });

  it('#33.2 a list an earlier Dense summary carried goes on, and later updates apply to it', () => {
    const earlier = [
      human('Audit the parts.'),
      ...create('a', 1, 'Audit the first half'),
      ...create('b', 2, 'Audit the second half'),
    ];
    const summary = compactionSummary({
      removed: earlier,
      history: earlier,
      removedRaw: 'x',
      budgetChars: 8_000,
      purpose: 'client-compaction',
    }).text;
    const continued = [
      human(`This session is being continued from a previous conversation.\nSummary:\n${summary}`),
      ...update('c', '1', { status: 'completed' }),
    ];
    expect(clientTaskList(continued)).toEqual([
      { id: '1', content: 'Audit the first half', status: 'completed' },
      { id: '2', content: 'Audit the second half', status: 'pending' },
    ]);
  });

  it("#33.2 the CLI trail shows the client's own list when the todo store holds none (a replayed or imported session)", () => {
    const before = [
      human('Audit the parts.'),
      ...create('a', 1, 'Audit the first half'),
      ...update('b', '1', { status: 'in_progress' }),
      human('go on'),
    ];
    const keeper = new ArtifactTrailKeeper();
    const input = { workspaceRoot: '/w', contextLimit: 32_000, before, after: before.slice(-1) };
    const shown = (todos: readonly Todo[]) =>
      JSON.stringify(keeper.historyWithTrail({ ...input, todos }));
    expect(shown([])).toContain('[>] Audit the first half (id: 1, in_progress)');
    const own: Todo[] = [{ id: 'x', content: 'Dense list item', status: 'pending' }];
    expect(shown(own)).toContain('Dense list item');
    expect(shown(own)).not.toContain('Audit the first half (id: 1');
  });
});
