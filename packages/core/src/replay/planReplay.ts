/**
 * Turns a recorded session into the steps the replay engine drives through a real session: which
 * human entries are recorded directly, which one is sent, which recorded AI entries answer each
 * model call, and the recorded response for every call id. Pure.
 */
import type { IContent, ToolResponseBlock } from '../services/history/IContent.js';
import { recordingPosition, replayEntryId } from './oracle/exposureLedger.js';

/** A recorded entry and its position in the recording (see `recordingPosition`). */
export interface RecordedEntry {
  readonly entry: IContent;
  readonly position: number;
}

export interface RecordedResponse {
  readonly block: ToolResponseBlock;
  readonly position: number;
}

/**
 * - `send`: record `direct` (earlier human entries) as they are, then send `message`; the model's
 *   calls of the turn are answered by `replies`, in order.
 * - `continue`: the model speaks again without a new user message (`chat.continueStream()`).
 * - `record`: human entries no model call follows (the end of a session); recorded as they are.
 */
export type ReplayTurn =
  | {
      readonly kind: 'send';
      readonly direct: readonly RecordedEntry[];
      readonly message: RecordedEntry;
      readonly replies: readonly RecordedEntry[];
    }
  | { readonly kind: 'continue'; readonly replies: readonly RecordedEntry[] }
  | { readonly kind: 'record'; readonly direct: readonly RecordedEntry[] };

export interface ReplayPlan {
  /** The recording with a replay id in every entry's `metadata.id`. */
  readonly contents: readonly IContent[];
  readonly turns: readonly ReplayTurn[];
  /** The first recorded response of each call id. */
  readonly responses: ReadonlyMap<string, RecordedResponse>;
}

/** A copy of each entry with `metadata.id` = its replay id; other metadata is kept. */
export function withReplayIds(contents: readonly IContent[]): IContent[] {
  return contents.map((entry, index) => ({
    ...entry,
    metadata: { ...entry.metadata, id: replayEntryId(index) },
  }));
}

function hasToolCalls(entry: IContent): boolean {
  return entry.blocks.some((block) => block.type === 'tool_call');
}

/**
 * Splits the recording into turns. A human entry after AI replies starts a new turn; an AI entry
 * right after an AI entry without tool calls starts a `continue` turn; tool entries are not
 * steps (their responses are served by call id when the model calls).
 */
export function planReplay(recording: readonly IContent[]): ReplayPlan {
  const contents = withReplayIds(recording);
  const turns: ReplayTurn[] = [];
  const responses = new Map<string, RecordedResponse>();
  let humans: RecordedEntry[] = [];
  let replies: RecordedEntry[] = [];
  const close = () => {
    const message = humans.at(-1);
    if (replies.length === 0) {
      if (humans.length > 0) turns.push({ kind: 'record', direct: humans });
    } else if (message === undefined) {
      turns.push({ kind: 'continue', replies });
    } else {
      turns.push({ kind: 'send', direct: humans.slice(0, -1), message, replies });
    }
    humans = [];
    replies = [];
  };
  contents.forEach((entry, entryIndex) => {
    const recorded = { entry, position: recordingPosition(entryIndex, 0) };
    if (entry.speaker === 'human') {
      if (replies.length > 0) close();
      humans.push(recorded);
    } else if (entry.speaker === 'ai') {
      const last = replies.at(-1);
      if (last !== undefined && !hasToolCalls(last.entry)) close();
      replies.push(recorded);
    } else {
      entry.blocks.forEach((block, blockIndex) => {
        if (block.type !== 'tool_response' || responses.has(block.callId)) return;
        responses.set(block.callId, {
          block,
          position: recordingPosition(entryIndex, blockIndex),
        });
      });
    }
  });
  close();
  return { contents, turns, responses };
}
