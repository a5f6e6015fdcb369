/** Every tool result of a recording with its entry and recording position, in order. Pure. */
import type { IContent, ToolResponseBlock } from '../../services/history/IContent.js';
import { recordingPosition } from '../oracle/exposureLedger.js';

export interface RecordedResult {
  readonly block: ToolResponseBlock;
  readonly entry: IContent;
  readonly position: number;
}

export function* recordedResults(contents: readonly IContent[]): Generator<RecordedResult> {
  for (const [entryIndex, entry] of contents.entries()) {
    for (const [blockIndex, block] of entry.blocks.entries()) {
      if (block.type === 'tool_response') {
        yield { block, entry, position: recordingPosition(entryIndex, blockIndex) };
      }
    }
  }
}
