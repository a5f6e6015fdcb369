/**
 * Whether the client's task list as it stood before a model call (`planTaskLists`) was visible
 * in what was sent to it: every current item's text somewhere in the sent entries. Calls made
 * while the client held no list, or an empty one, are not judged.
 */
import type { IContent } from '../../services/history/IContent.js';
import type { TaskListState } from './planTaskLists.js';
import { latestBefore, TextSightings } from './TextSightings.js';

export class TaskListJudge {
  private readonly sightings = new TextSightings();

  constructor(private readonly states: readonly TaskListState[]) {}

  /** Undefined when not judged; else whether every item was visible. */
  judge(
    sent: readonly IContent[],
    present: ReadonlySet<IContent>,
    position: number,
  ): boolean | undefined {
    const items = latestBefore(this.states, position)?.items ?? [];
    if (items.length === 0) return undefined;
    return items.every((item) => this.sightings.visible(item, sent, present));
  }
}
