/**
 * The agent's current todo list: the state behind `todo_write` / `todo_read`, read by compression
 * to fill `activeTodos`. The list is replaced whole, validated, frozen, and announced as an event.
 */
import { TodoListSchema, type Todo } from '../../tools/todo-schemas.js';
import { DenseError } from '../../utils/errors.js';
import { TypedEmitter } from '../../utils/TypedEmitter.js';

export class InvalidTodoListError extends DenseError {
  readonly code = 'INVALID_TODO_LIST';
}

export interface TodoStoreEvents {
  readonly change: { readonly todos: readonly Todo[]; readonly previous: readonly Todo[] };
}

function freezeList(todos: readonly Todo[]): readonly Todo[] {
  return Object.freeze(
    todos.map((todo) =>
      Object.freeze({
        ...todo,
        ...(todo.subtasks === undefined
          ? {}
          : { subtasks: Object.freeze(todo.subtasks.map((s) => Object.freeze({ ...s }))) }),
      }),
    ),
  );
}

function validate(todos: unknown): readonly Todo[] {
  const parsed = TodoListSchema.safeParse(todos);
  if (parsed.success) return freezeList(parsed.data);
  const problems = parsed.error.issues
    .map((issue) => `${issue.path.map(String).join('.') || '(list)'}: ${issue.message}`)
    .join('; ');
  throw new InvalidTodoListError(
    `Invalid todo list: ${problems}. Each todo needs a unique non-empty id, non-empty content and a status of pending, in_progress or completed.`,
  );
}

export class TodoStore {
  private todos: readonly Todo[];
  private readonly emitter = new TypedEmitter<TodoStoreEvents>();

  /** @throws InvalidTodoListError when `initial` is not a valid list. */
  constructor(initial: readonly Todo[] = []) {
    this.todos = validate(initial);
  }

  /** The whole list, frozen. */
  get(): readonly Todo[] {
    return this.todos;
  }

  /** Todos not completed yet (pending or in progress), in list order. */
  active(): readonly Todo[] {
    return this.todos.filter((todo) => todo.status !== 'completed');
  }

  /**
   * Replaces the list and emits `change`. The store is unchanged when validation fails.
   * @throws InvalidTodoListError when the list fails the schema or repeats an id.
   */
  set(todos: readonly unknown[]): void {
    const next = validate(todos);
    const previous = this.todos;
    this.todos = next;
    this.emitter.emit('change', { todos: next, previous });
  }

  /** Subscribes to list changes; returns the unsubscribe function. */
  on<K extends keyof TodoStoreEvents>(
    event: K,
    listener: (payload: TodoStoreEvents[K]) => void,
  ): () => void {
    return this.emitter.on(event, listener);
  }
}
