/**
 * The task list a coding-agent client keeps, as its calls in a stretch of conversation leave it:
 * Claude Code 2.x `TaskCreate` / `TaskUpdate` (the state rebuilt call by call, ids from the
 * client's "Task #N" results), `TodoWrite` and the todo tools of Qwen Code, gemini-cli and Dense
 * (`todo_write` / `write_todos`: the whole list each call), and Codex `update_plan` (the whole plan
 * each call), and the list an earlier Dense summary among them carried (its calls are compacted
 * away). Only the given entries count, so a summary of the turns before a cut carries the list as
 * of the cut and a rewound branch never comes back. Pure.
 */
import type { IContent, ToolCallBlock } from '../../../services/history/IContent.js';
import type { Todo, TodoStatus } from '../../../tools/todo-schemas.js';
import { TODO_STATUSES } from '../../../tools/todo-schemas.js';
import { todosIn } from '../../../tools/todo/formatTodoList.js';
import { isDenseText } from '../denseText.js';

const WHOLE_LIST_TOOLS = new Set(['todo_write', 'TodoWrite', 'write_todos']);
const PLAN_TOOL = 'update_plan';
const CREATE_TOOL = 'TaskCreate';
const UPDATE_TOOL = 'TaskUpdate';

type Params = Readonly<Record<string, unknown>>;

function paramsOf(call: ToolCallBlock): Params {
  const { parameters } = call;
  if (typeof parameters === 'string') {
    try {
      const parsed: unknown = JSON.parse(parameters);
      return typeof parsed === 'object' && parsed !== null ? (parsed as Params) : {};
    } catch {
      return {};
    }
  }
  return typeof parameters === 'object' && parameters !== null ? (parameters as Params) : {};
}

const text = (value: unknown): string => (typeof value === 'string' ? value.trim() : '');

/** A client's status word as Dense's; a cancelled item counts as done, anything unknown pending. */
function statusOf(value: unknown): TodoStatus {
  if (value === 'cancelled' || value === 'canceled') return 'completed';
  return TODO_STATUSES.find((status) => status === value) ?? 'pending';
}

/** A whole list (`todos` items with `content` or `description`; `plan` items with `step`). */
function wholeList(items: unknown, textKeys: readonly string[]): Todo[] {
  if (!Array.isArray(items)) return [];
  return items.flatMap((item: unknown, index): Todo[] => {
    if (typeof item !== 'object' || item === null) return [];
    const fields = item as Params;
    const content = textKeys.map((key) => text(fields[key])).find((value) => value !== '');
    if (content === undefined) return [];
    const id = text(fields.id) === '' ? String(index + 1) : text(fields.id);
    return [{ id, content, status: statusOf(fields.status) }];
  });
}

/** The text of the response to `callId` in `entries`, from `from` on ('' when none). */
function responseText(entries: readonly IContent[], from: number, callId: string): string {
  for (let i = from; i < entries.length; i++) {
    for (const block of (entries[i] as IContent).blocks) {
      if (block.type !== 'tool_response' || block.callId !== callId) continue;
      return typeof block.result === 'string' ? block.result : JSON.stringify(block.result ?? '');
    }
  }
  return '';
}

const TASK_NUMBER = /#(\d+)/;

/** Claude Code's task list as a map by id, in creation order. */
class TaskBoard {
  private readonly tasks: Map<string, Todo>;

  constructor(carried: readonly Todo[] = []) {
    this.tasks = new Map(carried.map((todo) => [todo.id, todo]));
  }

  create(params: Params, result: string): void {
    const content = text(params.subject) || text(params.description);
    if (content === '') return;
    const numbered = TASK_NUMBER.exec(result)?.[1];
    const id = numbered ?? String(this.tasks.size + 1);
    this.tasks.set(id, { id, content, status: 'pending' });
  }

  update(params: Params): void {
    const id = text(params.taskId);
    const task = this.tasks.get(id);
    if (task === undefined) return;
    if (params.status === 'deleted') {
      this.tasks.delete(id);
      return;
    }
    const subject = text(params.subject);
    this.tasks.set(id, {
      id,
      content: subject === '' ? task.content : subject,
      status: params.status === undefined ? task.status : statusOf(params.status),
    });
  }

  list(): Todo[] {
    return [...this.tasks.values()];
  }
}

/** The client's task list as `entries` leave it ([] when they hold no task calls). */
export function clientTaskList(entries: readonly IContent[]): Todo[] {
  let list: Todo[] = [];
  let board: TaskBoard | undefined;
  entries.forEach((entry, index) => {
    for (const block of entry.blocks) {
      if (block.type === 'text' && entry.speaker !== 'ai' && isDenseText(block.text)) {
        const carried = todosIn(block.text);
        if (carried !== undefined) {
          list = carried;
          board = new TaskBoard(carried);
        }
      }
      if (block.type !== 'tool_call') continue;
      const params = paramsOf(block);
      if (WHOLE_LIST_TOOLS.has(block.name)) {
        list = wholeList(params.todos, ['content', 'description']);
        board = undefined;
      } else if (block.name === PLAN_TOOL) {
        list = wholeList(params.plan, ['step']);
        board = undefined;
      } else if (block.name === CREATE_TOOL || block.name === UPDATE_TOOL) {
        board ??= new TaskBoard();
        if (block.name === CREATE_TOOL)
          board.create(params, responseText(entries, index, block.id));
        else board.update(params);
        list = board.list();
      }
    }
  });
  return list;
}
