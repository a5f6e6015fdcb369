/**
 * The task list the client held at each point of a recording, rebuilt from its task-list tool
 * calls (`taskListChange`). A call changes the list once its result is recorded, and only if the
 * result is not an error: the client applied it then. Whole-list tools replace the list; Claude
 * Code's tasks are kept by id beside it. A rewound branch is not in the recording, so its items
 * never come back. Independent of the compression code. Pure.
 */
import { toolCallsById, type IContent } from '../../services/history/IContent.js';
import { leaves } from '../grounding/groundingText.js';
import { recordedResults } from './recordedResults.js';
import { taskListChange, type TaskListChange } from './taskListChange.js';

/** The client's list from `position` on (until the next state): each item's text, in order. */
export interface TaskListState {
  readonly position: number;
  readonly items: readonly string[];
}

/** The list as the changes so far leave it. */
class ClientTaskList {
  private whole: readonly string[] = [];
  private readonly tasks = new Map<string, string>();
  /** The highest task number given so far: the client numbers its tasks 1, 2, 3 … */
  private created = 0;

  apply(change: TaskListChange): void {
    switch (change.kind) {
      case 'replace':
        this.whole = change.items;
        return;
      case 'create': {
        const id = change.id ?? String(this.created + 1);
        this.created = Math.max(this.created, Number(id) || 0);
        this.tasks.set(id, change.subject);
        return;
      }
      case 'update':
        if (change.deleted) this.tasks.delete(change.id);
        else if (change.subject !== undefined) this.tasks.set(change.id, change.subject);
        return;
      default: {
        const never: never = change;
        return never;
      }
    }
  }

  items(): readonly string[] {
    return [...this.whole, ...this.tasks.values()];
  }
}

/** The list after each change of the recording, oldest first. */
export function planTaskLists(contents: readonly IContent[]): readonly TaskListState[] {
  const calls = toolCallsById(contents);
  const list = new ClientTaskList();
  const states: TaskListState[] = [];
  for (const { block, position } of recordedResults(contents)) {
    const call = calls.get(block.callId);
    if (call === undefined || block.error !== undefined) continue;
    const change = taskListChange(call, leaves(block.result));
    if (change === undefined) continue;
    list.apply(change);
    states.push({ position, items: list.items() });
  }
  return states;
}
