/**
 * What one recorded tool call did to the task list a client keeps: Claude Code 2.x `TaskCreate`
 * (one item; the client's "Task #N created successfully" result gives its id) and `TaskUpdate`
 * (an item's status or subject; `deleted` removes it), the whole-list todo tools (`TodoWrite`,
 * `todo_write`, `write_todos`: `todos` items with `content` or `description`) and Codex
 * `update_plan` (`plan` items with `step`; its arguments may be a JSON string). Read from the
 * recording only, independent of the compression code. Pure.
 */
import type { ToolCallBlock } from '../../services/history/IContent.js';

export type TaskListChange =
  | { readonly kind: 'replace'; readonly items: readonly string[] }
  | { readonly kind: 'create'; readonly id: string | undefined; readonly subject: string }
  | {
      readonly kind: 'update';
      readonly id: string;
      readonly deleted: boolean;
      readonly subject: string | undefined;
    };

const WHOLE_LIST_TOOLS: ReadonlySet<string> = new Set(['TodoWrite', 'todo_write', 'write_todos']);

type Fields = Readonly<Record<string, unknown>>;

function fieldsOf(value: unknown): Fields {
  if (typeof value === 'string') {
    try {
      return fieldsOf(JSON.parse(value) as unknown);
    } catch {
      return {}; // arguments that are not JSON change nothing
    }
  }
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Fields)
    : {};
}

function textOf(value: unknown): string | undefined {
  if (typeof value === 'number') return String(value);
  if (typeof value !== 'string') return undefined;
  const text = value.trim();
  return text === '' ? undefined : text;
}

/** Each item's text: the first of `keys` it holds; items without one are left out. */
function itemTexts(items: unknown, keys: readonly string[]): string[] {
  if (!Array.isArray(items)) return [];
  return items.flatMap((item: unknown) => {
    const fields = fieldsOf(item);
    const text = keys.map((key) => textOf(fields[key])).find((found) => found !== undefined);
    return text === undefined ? [] : [text];
  });
}

const CREATED = /Task #(\d+) created/;

/**
 * The change `call` made, given the text of its (successful) result; undefined for a call that
 * is not a task-list tool or that changes nothing.
 */
export function taskListChange(
  call: ToolCallBlock,
  resultText: string,
): TaskListChange | undefined {
  const params = fieldsOf(call.parameters);
  if (WHOLE_LIST_TOOLS.has(call.name)) {
    return { kind: 'replace', items: itemTexts(params.todos, ['content', 'description']) };
  }
  switch (call.name) {
    case 'update_plan':
      return { kind: 'replace', items: itemTexts(params.plan, ['step']) };
    case 'TaskCreate': {
      const subject = textOf(params.subject);
      if (subject === undefined) return undefined;
      return { kind: 'create', id: CREATED.exec(resultText)?.[1], subject };
    }
    case 'TaskUpdate': {
      const id = textOf(params.taskId);
      if (id === undefined) return undefined;
      const subject = textOf(params.subject);
      return { kind: 'update', id, deleted: params.status === 'deleted', subject };
    }
    default:
      return undefined;
  }
}
