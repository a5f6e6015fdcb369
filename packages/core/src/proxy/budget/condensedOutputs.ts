/**
 * The tool outputs a compaction removes, as its summary ranks their specifics: each output's own
 * text (without the reminders a client appends), its kind and where it sits in the conversation.
 * A shell call that only prints one file (`cat`, `nl`, `sed -n`, `head`: what Codex and
 * shell-only agents read with) is ranked as the read it is: its outline first, with the file's
 * lines where the command says where its output starts. Pure.
 */
import type {
  IContent,
  ToolCallBlock,
  ToolResponseBlock,
} from '../../services/history/IContent.js';
import { toolKindOf } from '../../core/compression/density/compress/toolSummaryFacts.js';
import { originalResponseText } from '../../core/compression/recallPointers.js';
import { withoutClientContext } from '../../services/history/clientContext.js';
import { shellReadOfCall } from '../../core/compression/density/shellReadOfCall.js';
import type { OutputSpecificsInput } from './outputSpecifics.js';

export type CondensedOutput = Pick<
  OutputSpecificsInput,
  'kind' | 'text' | 'source' | 'firstLine'
> & {
  /** Where the output sits in the whole conversation (-1: not found there). */
  readonly position: number;
};

/** Each output block's own text, kept with it: a later compaction of its region reads it again. */
const OWN_TEXT = new WeakMap<ToolResponseBlock, string>();

/** A tool output's text without the reminders a client appends (not the output's specifics). */
function ownTextOf(block: ToolResponseBlock): string {
  let text = OWN_TEXT.get(block);
  if (text === undefined) {
    text = withoutClientContext(originalResponseText(block));
    OWN_TEXT.set(block, text);
  }
  return text;
}

/** Each removed tool output's own text, kind and position in `history`, by call id. */
export function outputsByCall(
  removed: readonly IContent[],
  positionOf: (entry: IContent) => number,
  calls: ReadonlyMap<string, ToolCallBlock>,
): Map<string, CondensedOutput> {
  const found = new Map<string, CondensedOutput>();
  for (const entry of removed) {
    const position = positionOf(entry);
    for (const block of entry.blocks) {
      if (block.type !== 'tool_response') continue;
      const call = calls.get(block.callId);
      const kind = toolKindOf(call?.name ?? block.toolName, call?.parameters);
      const text = ownTextOf(block);
      const read = kind === 'shell' ? shellRead(call) : undefined;
      found.set(block.callId, { kind, text, position, source: block, ...read });
    }
  }
  return found;
}

/** A shell call that prints one file and nothing else: a read, and where its output starts. */
function shellRead(
  call: ToolCallBlock | undefined,
): Pick<CondensedOutput, 'kind' | 'firstLine'> | undefined {
  const read = shellReadOfCall(call);
  return read === undefined ? undefined : { kind: 'read', firstLine: read.firstLine };
}
