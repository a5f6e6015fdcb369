/** `todo_read`: the agent's current todo list. */
import { z } from 'zod';
import { defineTool } from '../defineTool.js';
import { toolSuccess } from '../Tool.js';
import { formatTodoList } from './formatTodoList.js';

export const todoReadTool = defineTool({
  name: 'todo_read',
  kind: 'other',
  description: "Returns your current todo list with each item's id and status.",
  parameters: z.object({}),
  describe: () => 'Read the todo list',
  execute(_params, context) {
    const todos = context.todoStore.get();
    return Promise.resolve(toolSuccess(formatTodoList(todos), `${todos.length} todos`));
  },
});
