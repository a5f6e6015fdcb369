/**
 * What follows every applied compression (kept out of CompressionHandler): the artifact trail
 * and the todo list are put back deterministically, and a guard against compaction loops: when the pre-send check wants to compress again within
 * `LOOP_WINDOW_SENDS` sends of the last compression, the handler reports it and does not compress
 * again (only the hard-limit emergency path still may), instead of rewriting the history every turn.
 */
import type { IContent } from '../services/history/IContent.js';
import type { Todo } from '../tools/todo-schemas.js';
import { ArtifactTrailKeeper } from './compression/artifactTrail/contextAnchor.js';
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

export interface AnchorContext {
  readonly before: readonly IContent[];
  readonly todos: readonly Todo[];
  readonly workspaceRoot: string;
  readonly contextLimit: number;
}

export class CompressionAftercare {
  private readonly trail = new ArtifactTrailKeeper();
  private sends = 0;
  private lastCompressionSend: number | undefined;

  /** `result` with the trail and todos anchored into its new history (applied results only). */
  anchor(result: CompressionResult, context: AnchorContext): CompressionResult {
    if (result.kind !== 'applied') return result;
    const newHistory = this.trail.anchor({ ...context, after: result.newHistory });
    return {
      ...result,
      newHistory,
      metadata: { ...result.metadata, compressedMessageCount: newHistory.length },
    };
  }

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
