import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { TODO_STATUSES, type Todo } from '../../tools/todo-schemas.js';
import { InvalidTodoListError, TodoStore } from './TodoStore.js';

const list: Todo[] = [
  { id: '1', content: 'Write the parser', status: 'completed' },
  {
    id: '2',
    content: 'Test the parser',
    status: 'in_progress',
    subtasks: [{ id: '2a', content: 'edge cases' }],
  },
  { id: '3', content: 'Document it', status: 'pending' },
];

describe('TodoStore', () => {
  it('starts empty and returns what was set', () => {
    const store = new TodoStore();
    expect(store.get()).toEqual([]);
    store.set(list);
    expect(store.get()).toEqual(list);
  });

  it('REQ-HD-011.2 active() holds the todos that are not completed, in order', () => {
    const store = new TodoStore(list);
    expect(store.active().map((t) => t.id)).toEqual(['2', '3']);
  });

  it('keeps its own frozen copy, so callers cannot change its state', () => {
    const input = list.map((t) => ({ ...t }));
    const store = new TodoStore();
    store.set(input);
    input[0]!.content = 'changed by the caller';
    expect(store.get()[0]?.content).toBe('Write the parser');
    expect(Object.isFrozen(store.get())).toBe(true);
    expect(Object.isFrozen(store.get()[1])).toBe(true);
    expect(Object.isFrozen(store.get()[1]?.subtasks)).toBe(true);
  });

  it('rejects an invalid list with a typed error and keeps the old list', () => {
    const store = new TodoStore(list);
    const bad = [{ id: '1', content: 'x', status: 'done' }];
    expect(() => store.set(bad)).toThrow(InvalidTodoListError);
    expect(() => store.set(bad)).toThrow(/0\.status/);
    expect(() => store.set([list[0], { ...list[2], id: '1' }])).toThrow(/duplicate todo id "1"/);
    expect(() =>
      store.set([
        {
          id: 'a',
          content: 'x',
          status: 'pending',
          subtasks: [
            { id: 's', content: 'y' },
            { id: 's', content: 'z' },
          ],
        },
      ]),
    ).toThrow(/duplicate subtask id "s"/);
    expect(store.get()).toEqual(list);
  });

  it('validates the initial list too', () => {
    expect(() => new TodoStore([{ id: '', content: 'x', status: 'pending' }])).toThrow(
      InvalidTodoListError,
    );
  });

  it('emits change with the new and previous list; unsubscribing stops it', () => {
    const store = new TodoStore(list.slice(0, 1));
    const listener = vi.fn();
    const off = store.on('change', listener);
    store.set(list);
    expect(listener).toHaveBeenCalledWith({ todos: store.get(), previous: list.slice(0, 1) });
    off();
    store.set([]);
    expect(listener).toHaveBeenCalledTimes(1);
  });

  it('does not emit when validation fails', () => {
    const store = new TodoStore();
    const listener = vi.fn();
    store.on('change', listener);
    expect(() => store.set([{ id: 1 }])).toThrow();
    expect(listener).not.toHaveBeenCalled();
  });

  it('for any valid list, active() is exactly the todos whose status is not completed', () => {
    const todo = fc.record({
      content: fc.string({ minLength: 1, maxLength: 10 }),
      status: fc.constantFrom(...TODO_STATUSES),
    });
    fc.assert(
      fc.property(fc.array(todo, { maxLength: 15 }), (items) => {
        const todos = items.map((item, i) => ({ id: `t${i}`, ...item }));
        const store = new TodoStore(todos);
        expect(store.active()).toEqual(todos.filter((t) => t.status !== 'completed'));
      }),
      { numRuns: 150 },
    );
  });
});
