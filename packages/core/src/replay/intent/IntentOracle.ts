/**
 * Whether the model still knows what it was asked: at each model call of a replay, every message
 * the user typed before it (`planIntent`) is judged against what the policy sent to that call —
 * visible verbatim (each of its lines, in one entry), visible only as the head and tail of a long
 * paste (cut), or lost. A summary that paraphrases the user is lost by this measure on purpose:
 * the user's words are the task. Beside them, per call, whether the client's current task list
 * (`TaskListJudge`) and the latest failure the agent had seen (`FailureJudge`) were visible. Knows
 * nothing of the strategies' code; reads only what was sent.
 */
import type { IContent } from '../../services/history/IContent.js';
import { shownText } from '../grounding/groundingText.js';
import { FailureJudge } from './FailureJudge.js';
import type { UserMessage } from './planIntent.js';
import { NO_WORK_STATE, type WorkState } from './planWorkState.js';
import { TaskListJudge } from './TaskListJudge.js';

export interface IntentCounts {
  /** Model calls judged (calls with at least one earlier user message). */
  readonly calls: number;
  /** Calls where every earlier user message was visible verbatim (cuts counted as visible). */
  readonly callsWithAll: number;
  /** Judgements: each earlier user message once per model call. */
  readonly messages: number;
  readonly verbatim: number;
  /** Long pastes shown as head and tail only. */
  readonly cut: number;
  readonly lost: number;
  /** Model calls made while the client held a non-empty task list. */
  readonly callsWithTasks: number;
  /** Of those, calls where every item of the list was visible. */
  readonly tasksVisible: number;
  /** Model calls made after at least one failed tool result. */
  readonly callsWithFailure: number;
  /** Of those, calls where the latest failure (its signature or its whole output) was visible. */
  readonly failureVisible: number;
}

export const ZERO_INTENT: IntentCounts = {
  calls: 0,
  callsWithAll: 0,
  messages: 0,
  verbatim: 0,
  cut: 0,
  lost: 0,
  callsWithTasks: 0,
  tasksVisible: 0,
  callsWithFailure: 0,
  failureVisible: 0,
};

/** Past this many characters a message may be shown as head and tail (a pasted log). */
export const LONG_PASTE_CHARS = 8_000;
const HEAD_TAIL_CHARS = 1_000;

type Verdict = 'verbatim' | 'cut' | 'lost';

/** The text to search for: each line trimmed (clients re-indent), blank lines left out. */
function lines(text: string): string[] {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');
}

/** A one-line message must occur whole; a longer one line by line, in order (clients re-indent). */
function holds(haystack: string, text: string): boolean {
  const parts = lines(text);
  if (parts.length <= 1) return haystack.includes(text.trim());
  let from = 0;
  for (const line of parts) {
    const at = haystack.indexOf(line, from);
    if (at < 0) return false;
    from = at + line.length;
  }
  return true;
}

/** Where a message was last seen and how: an entry keeps showing it while it is sent. */
interface Sighting {
  readonly entry: IContent;
  readonly verdict: Exclude<Verdict, 'lost'>;
}

export class IntentOracle {
  private counts: IntentCounts = ZERO_INTENT;
  private readonly seen = new Map<UserMessage, Sighting>();
  private readonly tasks: TaskListJudge;
  private readonly failures: FailureJudge;

  /**
   * `messages` from `planIntent`, `work` from `planWorkState` of the same recording (without it,
   * no task list or failure is judged).
   */
  constructor(
    private readonly messages: readonly UserMessage[],
    work: WorkState = NO_WORK_STATE,
  ) {
    this.tasks = new TaskListJudge(work.taskLists);
    this.failures = new FailureJudge(work.failures);
  }

  onModelCall(sent: readonly IContent[], position: number): void {
    const present = new Set(sent);
    this.judgeWork(sent, present, position);
    const earlier = this.messages.filter((message) => message.position < position);
    if (earlier.length === 0) return;
    const verdicts = earlier.map((message) => this.judge(message, sent, present));
    const c = this.counts;
    const count = (kind: Verdict): number => verdicts.filter((v) => v === kind).length;
    this.counts = {
      ...c,
      calls: c.calls + 1,
      callsWithAll: c.callsWithAll + (verdicts.includes('lost') ? 0 : 1),
      messages: c.messages + verdicts.length,
      verbatim: c.verbatim + count('verbatim'),
      cut: c.cut + count('cut'),
      lost: c.lost + count('lost'),
    };
  }

  totals(): IntentCounts {
    return this.counts;
  }

  /** The task list and the latest failure, each judged where it applies. */
  private judgeWork(sent: readonly IContent[], present: Set<IContent>, position: number): void {
    const tasks = this.tasks.judge(sent, present, position);
    const failure = this.failures.judge(sent, present, position);
    const c = this.counts;
    const judged = (verdict: boolean | undefined): number => (verdict === undefined ? 0 : 1);
    const visible = (verdict: boolean | undefined): number => (verdict === true ? 1 : 0);
    this.counts = {
      ...c,
      callsWithTasks: c.callsWithTasks + judged(tasks),
      tasksVisible: c.tasksVisible + visible(tasks),
      callsWithFailure: c.callsWithFailure + judged(failure),
      failureVisible: c.failureVisible + visible(failure),
    };
  }

  private judge(message: UserMessage, sent: readonly IContent[], present: Set<IContent>): Verdict {
    const last = this.seen.get(message);
    if (last !== undefined && present.has(last.entry)) return last.verdict;
    const sighting = sightingOf(message.text, sent);
    if (sighting === undefined) this.seen.delete(message);
    else this.seen.set(message, sighting);
    return sighting?.verdict ?? 'lost';
  }
}

/** The newest entry that shows `text` whole, else (a long paste) its head and tail. */
function sightingOf(text: string, sent: readonly IContent[]): Sighting | undefined {
  const long = text.length > LONG_PASTE_CHARS;
  const head = text.slice(0, HEAD_TAIL_CHARS);
  const tail = text.slice(-HEAD_TAIL_CHARS);
  let cut: IContent | undefined;
  for (let i = sent.length - 1; i >= 0; i--) {
    const entry = sent[i] as IContent;
    const shown = shownText(entry);
    if (holds(shown, text)) return { entry, verdict: 'verbatim' };
    if (long && cut === undefined && holds(shown, head) && holds(shown, tail)) cut = entry;
  }
  return cut === undefined ? undefined : { entry: cut, verdict: 'cut' };
}

const INTENT_KEYS = Object.keys(ZERO_INTENT) as (keyof IntentCounts)[];

/** Counts of several runs added up. */
export function sumIntent(all: readonly (IntentCounts | undefined)[]): IntentCounts {
  const sum = { ...ZERO_INTENT };
  for (const one of all) if (one !== undefined) for (const key of INTENT_KEYS) sum[key] += one[key];
  return sum;
}
