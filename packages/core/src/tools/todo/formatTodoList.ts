/**
 * The todo list as the model reads it: one line per todo, subtasks indented, status as a box; and
 * read back from such text (a summary that carried it).
 */
import type { Todo, TodoStatus } from '../todo-schemas.js';
import { plural } from '../workspace/plural.js';

const BOX: Record<TodoStatus, string> = {
  pending: '[ ]',
  in_progress: '[>]',
  completed: '[x]',
};

export function formatTodoList(todos: readonly Todo[]): string {
  if (todos.length === 0) return 'The todo list is empty.';
  const counts = { pending: 0, in_progress: 0, completed: 0 };
  const lines: string[] = [];
  for (const todo of todos) {
    counts[todo.status]++;
    lines.push(`${BOX[todo.status]} ${todo.content} (id: ${todo.id}, ${todo.status})`);
    for (const subtask of todo.subtasks ?? []) {
      const status = subtask.status ?? 'pending';
      lines.push(`    ${BOX[status]} ${subtask.content} (id: ${subtask.id}, ${status})`);
    }
  }
  const header = `Todo list: ${plural(todos.length, 'item')} — ${counts.in_progress} in progress, ${counts.pending} pending, ${counts.completed} completed.`;
  return [header, ...lines].join('\n');
}

const TODO_LINE = /^\[( |>|x)\] (.+) \(id: ([^,()]+), (pending|in_progress|completed)\)$/;

/**
 * The todos of the list `formatTodoList` wrote into `text` (subtasks left out); undefined when
 * `text` holds none.
 */
export function todosIn(text: string): Todo[] | undefined {
  const at = text.search(/^Todo list: \d+ items? — /m);
  if (at < 0) return undefined;
  const todos: Todo[] = [];
  for (const line of text.slice(at).split('\n').slice(1)) {
    if (line.startsWith('    ')) continue;
    const match = TODO_LINE.exec(line);
    if (match === null) break;
    todos.push({
      id: match[3] as string,
      content: match[2] as string,
      status: match[4] as TodoStatus,
    });
  }
  return todos;
}
