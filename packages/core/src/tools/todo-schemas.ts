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
export type Todo = Readonly<z.infer<typeof TodoSchema>>;
