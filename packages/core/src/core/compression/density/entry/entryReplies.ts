/**
 * What high-density does as content enters the history, before it is recorded: a tool result that
 * repeats what is still in context is offered as a short reply naming the earlier call (an
 * identical re-read, then runs of repeated lines), and a user message's `@` inclusion identical to
 * one still in context becomes a note naming it. Nothing already sent changes, so no prompt cache
 * is lost. Off while recency pruning runs: it could replace the earlier copy while the reply stays.
 */
import type {
  IContent,
  ToolCallBlock,
  ToolResponseBlock,
} from '../../../../services/history/IContent.js';
import type { SettingsReader } from '../../../../settings/SettingsReader.js';
import { densityPassSwitches } from '../../densityPass.js';
import { repeatedLinesReply } from './repeatedLines.js';
import { unchangedInclusionMessage } from './unchangedInclusion.js';
import { unchangedReadReply } from './unchangedRead.js';

/** What a strategy sees when content enters the history. */
export interface EntryContext {
  /** The raw history as it is now, without the entering content. */
  readonly history: readonly IContent[];
  /** The live settings (`compression.density.unchangedReads` and the pass switches). */
  readonly settings: SettingsReader;
  /** Relative paths in tool parameters resolve against this directory. */
  readonly workspaceRoot: string;
}

function entryRepliesOn(settings: SettingsReader): boolean {
  return (
    settings.get('compression.density.unchangedReads') && !densityPassSwitches(settings).recency
  );
}

/**
 * The replies that could be recorded instead of `response`, best first, each computed only when
 * the caller asks for the next; the caller records the first that costs fewer tokens than the
 * output. Pure: never changes `context.history`.
 */
export function* toolResultReplies(
  call: ToolCallBlock,
  response: ToolResponseBlock,
  context: EntryContext,
): Generator<ToolResponseBlock, void, undefined> {
  if (!entryRepliesOn(context.settings)) return;
  const options = { workspaceRoot: context.workspaceRoot };
  for (const candidate of [unchangedReadReply, repeatedLinesReply]) {
    const reply = candidate(context.history, call, response, options);
    if (reply !== undefined) yield reply;
  }
}

/** The message to record instead of `message`, or `undefined` to record it as it is. Pure. */
export function userMessageNote(message: IContent, context: EntryContext): IContent | undefined {
  if (!entryRepliesOn(context.settings)) return undefined;
  return unchangedInclusionMessage(context.history, message, {
    workspaceRoot: context.workspaceRoot,
  });
}
