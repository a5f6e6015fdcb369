/**
 * The guard against compaction loops: when the pre-send check wants to compress again within
 * `LOOP_WINDOW_SENDS` sends of the last applied compression, the handler reports it and does not
 * compress again (only the hard-limit emergency path still may), instead of rewriting the history
 * every turn.
 */
import type { CompressionResult } from './compression/types.js';

/** A compression this many sends or fewer after the previous one counts as a loop. */
export const LOOP_WINDOW_SENDS = 2;

export interface CompactionLoopEvent {
  /** Sends since the last applied compression. */
  readonly sendsSinceCompression: number;
  readonly tokens: number;
  readonly thresholdTokens: number;
  readonly message: string;
}

export class CompactionLoopGuard {
  private sends = 0;
  private lastCompressionSend: number | undefined;

  /** A model call was sent. */
  onSend(): void {
    this.sends++;
  }

  onCompressed(result: CompressionResult): void {
    if (result.kind === 'applied') this.lastCompressionSend = this.sends;
  }

  /** The loop report when compressing now would follow the last compression too closely. */
  loopCheck(tokens: number, thresholdTokens: number): CompactionLoopEvent | undefined {
    if (this.lastCompressionSend === undefined) return undefined;
    const since = this.sends - this.lastCompressionSend;
    if (since > LOOP_WINDOW_SENDS) return undefined;
    return {
      sendsSinceCompression: since,
      tokens,
      thresholdTokens,
      message: `Context is still at ${tokens} tokens (threshold ${thresholdTokens}) ${since} call(s) after the last compression; not compressing again until ${LOOP_WINDOW_SENDS + 1} calls have passed or the hard limit forces it. Lower compression.preserveThreshold or switch strategy if this repeats.`,
    };
  }
}
