/**
 * After every applied compression, whatever the strategy: the user's messages the compression
 * took out (verbatim, `pinnedUserMessages`), the todo list and the artifact trail, from the history
 * and the todo store, go into the new history as one entry Dense writes itself — after the summary
 * when there is one, else first — replacing the previous one. Both accumulate over compressions,
 * so what an earlier compression dropped stays named, and the user's words stay visible.
 */
import {
  createAiMessage,
  createUserMessage,
  type IContent,
} from '../../../services/history/IContent.js';
import type { Todo } from '../../../tools/todo-schemas.js';
import type { CompressionResult } from '../types.js';
import { collectArtifacts, emptyArtifacts, type Artifacts } from './collectArtifacts.js';
import { historyView } from './namedInHistory.js';
import { renderArtifactTrail } from './renderArtifactTrail.js';
import { renderPinned, userMessagesOf } from '../pinnedUserMessages.js';
import { clientTaskList } from './clientTaskList.js';

/** Share of the context window the trail may take (the todo list is always whole). */
export const TRAIL_SHARE = 0.16;
/**
 * The trail's share when room is what is short (the hard limit's last step): enough for what was
 * tried and failed and the newest of the rest, which outrank the older entries dropped for it.
 */
export const SHORT_ROOM_TRAIL_SHARE = 0.04;
const CHARS_PER_TOKEN = 4;
/** Below this window (tokens) there is no room for a trail. */
export const MIN_TRAIL_CONTEXT = 8_000;
export const TRAIL_ACKNOWLEDGEMENT = 'Noted the artifact trail and the todo list.';

export function isTrailEntry(entry: IContent): boolean {
  return entry.metadata?.artifactTrail === true;
}

export interface TrailInput {
  /** The history the strategy compressed. */
  readonly before: readonly IContent[];
  readonly todos: readonly Todo[];
  readonly workspaceRoot: string;
  readonly contextLimit: number;
  /** Whether the artifact trail and todo list go in (`compression.artifactTrail`); the user's
   * messages always do. */
  readonly trail?: boolean;
  /** Share of the window the trail may take; `TRAIL_SHARE` when unset. */
  readonly share?: number;
}

/** The trail keeps at least this share of its budget however much the user's messages take. */
const TRAIL_FLOOR_SHARE = 0.25;

export class ArtifactTrailKeeper {
  private readonly artifacts: Artifacts = emptyArtifacts();
  /** The user's messages compressions took out of the history, oldest first. */
  private pinned: string[] = [];

  /** `result` with the current trail in its new history (applied results only). */
  keepTrail(result: CompressionResult, input: TrailInput): CompressionResult {
    if (result.kind !== 'applied') return result;
    if (result.metadata.carriesTrail === true) {
      // Its summary carries them; later trails still name what it took out.
      this.pinDropped(input.before, result.newHistory);
      if (input.trail !== false)
        collectArtifacts(input.before, input.workspaceRoot, this.artifacts);
      return result;
    }
    const newHistory = this.historyWithTrail({ ...input, after: result.newHistory });
    return {
      ...result,
      newHistory,
      metadata: { ...result.metadata, compressedMessageCount: newHistory.length },
    };
  }

  /** `input.after` (the strategy's new history) with the current trail in place of any earlier one. */
  /** `historyWithTrail` with the short trail of the hard limit's last step, as a keep function. */
  shortTrail(
    input: Omit<TrailInput, 'before' | 'share'>,
  ): (before: readonly IContent[], after: readonly IContent[]) => IContent[] {
    return (before, after) =>
      this.historyWithTrail({ ...input, before, after, share: SHORT_ROOM_TRAIL_SHARE });
  }

  historyWithTrail(input: TrailInput & { readonly after: readonly IContent[] }): IContent[] {
    this.pinDropped(input.before, input.after);
    const budget =
      input.contextLimit < MIN_TRAIL_CONTEXT
        ? 0
        : Math.floor(input.contextLimit * (input.share ?? TRAIL_SHARE) * CHARS_PER_TOKEN);
    const pinned = renderPinned(this.pinned);
    let trail = '';
    if (input.trail !== false) {
      collectArtifacts(input.before, input.workspaceRoot, this.artifacts);
      // What the kept history already shows needs no line or recall id in the trail: the budget
      // goes to the rest. The user's words come first and may take most of it.
      const view = historyView(input.after.filter((e) => !isTrailEntry(e)));
      const room = Math.max(Math.floor(budget * TRAIL_FLOOR_SHARE), budget - pinned.length);
      // The todo store is the list; a history it never saw (imported, replayed) keeps the list in
      // the client's own task calls.
      const todos = input.todos.length > 0 ? input.todos : clientTaskList(input.before);
      trail = renderArtifactTrail(this.artifacts, todos, room, view);
    }
    const text = [pinned, trail].filter((part) => part !== '').join('\n\n');
    return text === ''
      ? input.after.filter((e) => !isTrailEntry(e))
      : insertTrail(input.after, text);
  }

  /**
   * Adds the user's messages of the entries the compression took out (and those an earlier
   * trail entry carries, which is replaced whether or not the strategy kept it).
   */
  private pinDropped(before: readonly IContent[], after: readonly IContent[]): void {
    const kept = new Set(after);
    const dropped = before.filter((entry) => !kept.has(entry) || isTrailEntry(entry));
    const known = new Set(this.pinned);
    const carried = dropped.filter(isTrailEntry);
    const rest = dropped.filter((entry) => !isTrailEntry(entry));
    for (const message of userMessagesOf([...carried, ...rest])) {
      if (!known.has(message)) this.pinned.push(message);
      known.add(message);
    }
  }
}

/** `history` without earlier trail entries, with the trail after the last summary pair or first. */
export function insertTrail(history: readonly IContent[], text: string): IContent[] {
  const kept = history.filter((entry) => !isTrailEntry(entry));
  let at = 0;
  for (let i = kept.length - 1; i >= 0; i--) {
    if (kept[i]?.metadata?.isSummary === true) {
      at = kept[i + 1]?.speaker === 'ai' ? i + 2 : i + 1;
      break;
    }
  }
  const meta = { artifactTrail: true, synthetic: true };
  const trail: IContent[] = [createUserMessage(text, meta)];
  if (kept[at] === undefined || kept[at]?.speaker === 'human') {
    trail.push(createAiMessage(TRAIL_ACKNOWLEDGEMENT, meta));
  }
  return [...kept.slice(0, at), ...trail, ...kept.slice(at)];
}
