/**
 * The tools of a replayed session: every call gets the response recorded for its id. A call the
 * recording never answered (an interrupted session) gets a synthetic error response, counted.
 */
import type { ToolExecutor } from '../core/chatTypes.js';
import type { ToolSchema } from '../providers/IProvider.js';
import type { ToolCallBlock, ToolResponseBlock } from '../services/history/IContent.js';
import type { RecordedResponse } from './planReplay.js';

export const MISSING_RESPONSE_ERROR = 'No response was recorded for this call (replay).';

export class ReplayToolExecutor implements ToolExecutor {
  private synthetic = 0;
  private served = 0;

  constructor(
    private readonly responses: ReadonlyMap<string, RecordedResponse>,
    /** Told the recording position of each recorded response served. */
    private readonly onServed: (position: number) => void,
  ) {}

  /** Calls answered with a synthetic error. */
  get syntheticResponses(): number {
    return this.synthetic;
  }

  /** Calls answered, recorded or synthetic. */
  get toolCalls(): number {
    return this.served;
  }

  schemas(): readonly ToolSchema[] {
    return [];
  }

  execute(call: ToolCallBlock): Promise<ToolResponseBlock> {
    this.served++;
    const recorded = this.responses.get(call.id);
    if (recorded !== undefined) {
      this.onServed(recorded.position);
      return Promise.resolve(recorded.block);
    }
    this.synthetic++;
    return Promise.resolve({
      type: 'tool_response',
      callId: call.id,
      toolName: call.name,
      result: '',
      error: MISSING_RESPONSE_ERROR,
    });
  }
}
