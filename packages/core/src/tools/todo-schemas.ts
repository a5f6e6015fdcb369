/** The shape of the agent's todo list, shared by the todo tools, the TodoStore and compression. */
import { z } from 'zod';

export const TODO_STATUSES = ['pending', 'in_progress', 'completed'] as const;
export type TodoStatus = (typeof TODO_STATUSES)[number];

export const SubtaskSchema = z.object({
  id: z.string().min(1),
  content: z.string().min(1),
  status: z.enum(TODO_STATUSES).optional(),
});

export const TodoSchema = z.object({
  id: z.string().min(1),
  content: z.string().min(1),
  status: z.enum(TODO_STATUSES),
  subtasks: z.array(SubtaskSchema).optional(),
});

export type Subtask = Readonly<z.infer<typeof SubtaskSchema>>;
/** Deeply read-only: a todo's subtasks are read-only too. */
export type Todo = Readonly<
  Omit<z.infer<typeof TodoSchema>, 'subtasks'> & { subtasks?: readonly Subtask[] }
>;

/** A whole todo list: every todo id unique, and every subtask id unique within its todo. */
export const TodoListSchema = z.array(TodoSchema).superRefine((todos, ctx) => {
  const seen = new Map<string, number>();
  todos.forEach((todo, index) => {
    const first = seen.get(todo.id);
    if (first !== undefined) {
      ctx.addIssue({
        code: 'custom',
        path: [index, 'id'],
        message: `duplicate todo id "${todo.id}" (also used by item ${first}); ids must be unique`,
      });
    } else {
      seen.set(todo.id, index);
    }
    const subtaskIds = new Set<string>();
    todo.subtasks?.forEach((subtask, subIndex) => {
      if (subtaskIds.has(subtask.id)) {
        ctx.addIssue({
          code: 'custom',
          path: [index, 'subtasks', subIndex, 'id'],
          message: `duplicate subtask id "${subtask.id}" in todo "${todo.id}"`,
        });
      }
      subtaskIds.add(subtask.id);
    });
  });
});
