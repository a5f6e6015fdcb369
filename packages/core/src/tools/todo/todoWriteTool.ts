/** `todo_write`: replaces the agent's todo list in the TodoStore. */
import { z } from 'zod';
import { defineTool } from '../defineTool.js';
import { toolSuccess } from '../Tool.js';
import { TodoListSchema } from '../todo-schemas.js';
import { formatTodoList } from './formatTodoList.js';

const TodoWriteParams = z.object({
  todos: TodoListSchema.describe(
    'The complete new todo list (it replaces the old one). Each item: unique id, content, status (pending | in_progress | completed), optional subtasks with id, content and status.',
  ),
});

export const todoWriteTool = defineTool({
  name: 'todo_write',
  kind: 'other',
  description:
    'Replaces your todo list with the given items. Use it to plan multi-step work and to mark progress: send the whole list each time, with exactly the items that should exist.',
  parameters: TodoWriteParams,
  describe: (p) => `Update the todo list (${p.todos.length} items)`,
  execute(params, context) {
    context.todoStore.set(params.todos);
    return Promise.resolve(
      toolSuccess(
        `Todo list updated.\n${formatTodoList(context.todoStore.get())}`,
        'Updated todos',
      ),
    );
  },
});
