/**
 * The policy-independent half of the intent oracle: every message the user typed in a recording,
 * with its recording position. A user message is a human entry's text with the client's own
 * context taken out (`withoutClientContext`, a loaded skill's text: `isSkillText`); summaries, attachments, synthetic entries and
 * entries that hold only client context are not the user's words. Computed once per recording.
 * Independent of the compression code. Pure.
 */
import type { IContent } from '../../services/history/IContent.js';
import { isSkillText, withoutClientContext } from '../../services/history/clientContext.js';
import { recordingPosition } from '../oracle/exposureLedger.js';

/** One message the user typed. */
export interface UserMessage {
  readonly position: number;
  /** What the user typed, client context taken out. */
  readonly text: string;
}

function isUsersEntry(entry: IContent): boolean {
  const metadata = entry.metadata;
  return (
    entry.speaker === 'human' &&
    metadata?.isSummary !== true &&
    metadata?.synthetic !== true &&
    metadata?.attachment === undefined
  );
}

const plans = new WeakMap<readonly IContent[], readonly UserMessage[]>();

/** The user's messages of a recording, in order; memoised per array. */
export function planIntent(contents: readonly IContent[]): readonly UserMessage[] {
  let plan = plans.get(contents);
  if (plan === undefined) {
    const messages: UserMessage[] = [];
    contents.forEach((entry, entryIndex) => {
      if (!isUsersEntry(entry)) return;
      const text = entry.blocks
        .map((block, index) =>
          block.type === 'text' && !isSkillText(entry, index)
            ? withoutClientContext(block.text)
            : '',
        )
        .filter((part) => part !== '')
        .join('\n');
      if (text !== '') messages.push({ position: recordingPosition(entryIndex, 0), text });
    });
    plan = messages;
    plans.set(contents, plan);
  }
  return plan;
}
