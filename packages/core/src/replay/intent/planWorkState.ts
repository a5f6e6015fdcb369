/**
 * The policy-independent half of the intent oracle's task-list and failure judgements: the task
 * list the client held and the failures the agent saw, at each point of a recording. Computed
 * once per recording. Independent of the compression code. Pure.
 */
import type { IContent } from '../../services/history/IContent.js';
import { planFailures, type RecordedFailure } from './planFailures.js';
import { planTaskLists, type TaskListState } from './planTaskLists.js';

export interface WorkState {
  readonly taskLists: readonly TaskListState[];
  readonly failures: readonly RecordedFailure[];
}

/** No task list, no failure: what a recording without either plans to. */
export const NO_WORK_STATE: WorkState = { taskLists: [], failures: [] };

const plans = new WeakMap<readonly IContent[], WorkState>();

/** The task lists and failures of a recording; memoised per array. */
export function planWorkState(contents: readonly IContent[]): WorkState {
  let plan = plans.get(contents);
  if (plan === undefined) {
    plan = { taskLists: planTaskLists(contents), failures: planFailures(contents) };
    plans.set(contents, plan);
  }
  return plan;
}
