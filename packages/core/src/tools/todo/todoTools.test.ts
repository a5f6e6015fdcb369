import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  createToolHarness,
  errorText,
  okOutput,
  type ToolHarness,
} from '../testing/toolTestHarness.js';
import { formatTodoList } from './formatTodoList.js';

let h: ToolHarness;
beforeEach(async () => {
  h = await createToolHarness();
});
afterEach(async () => {
  await h.cleanup();
});

const todos = [
  { id: '1', content: 'Read the code', status: 'completed' },
  {
    id: '2',
    content: 'Fix the bug',
    status: 'in_progress',
    subtasks: [{ id: '2.1', content: 'write a test', status: 'completed' }],
  },
  { id: '3', content: 'Update docs', status: 'pending' },
];

describe('todo_write', () => {
  it('replaces the list in the TodoStore, emits a change, and shows the new list', async () => {
    const listener = vi.fn();
    h.context.todoStore.on('change', listener);
    const out = okOutput(await h.call('todo_write', { todos }));
    expect(h.context.todoStore.get()).toEqual(todos);
    expect(listener).toHaveBeenCalledTimes(1);
    expect(out).toBe(`Todo list updated.\n${formatTodoList(h.context.todoStore.get())}`);
    okOutput(await h.call('todo_write', { todos: [] }));
    expect(h.context.todoStore.get()).toEqual([]);
  });

  it('rejects duplicate ids, naming the field, and keeps the old list', async () => {
    okOutput(await h.call('todo_write', { todos }));
    const error = errorText(
      await h.call('todo_write', { todos: [todos[0], { ...todos[2], id: '1' }] }),
      'INVALID_PARAMETERS',
    );
    expect(error).toContain('todos[1].id: duplicate todo id "1"');
    expect(h.context.todoStore.get()).toEqual(todos);
  });

  it('rejects bad parameters, naming the field', async () => {
    expect(errorText(await h.call('todo_write', {}), 'INVALID_PARAMETERS')).toContain(
      'todos: is required',
    );
    expect(
      errorText(
        await h.call('todo_write', { todos: [{ id: '1', content: 'x', status: 'done' }] }),
        'INVALID_PARAMETERS',
      ),
    ).toContain('todos[0].status');
  });
});

describe('todo_read', () => {
  it('shows each todo with its id and status, subtasks indented', async () => {
    okOutput(await h.call('todo_write', { todos }));
    expect(okOutput(await h.call('todo_read', {}))).toBe(
      [
        'Todo list: 3 items — 1 in progress, 1 pending, 1 completed.',
        '[x] Read the code (id: 1, completed)',
        '[>] Fix the bug (id: 2, in_progress)',
        '    [x] write a test (id: 2.1, completed)',
        '[ ] Update docs (id: 3, pending)',
      ].join('\n'),
    );
  });

  it('says when the list is empty', async () => {
    expect(okOutput(await h.call('todo_read', {}))).toBe('The todo list is empty.');
  });
});
