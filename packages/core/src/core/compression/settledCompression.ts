/**
 * A strategy's compression as the history takes it: the user's messages it took out come back
 * (and the artifact trail, when set: `ArtifactTrailKeeper`), and a reply whose named text it
 * dropped is put back in the same rewrite (`settleReplies`), so one rewrite does both.
 */
import type { ArtifactTrailKeeper } from './artifactTrail/ArtifactTrailKeeper.js';
import { settleReplies } from './density/optimize/settleReplies.js';
import type { CompressionContext, CompressionResult } from './types.js';
import type { Todo } from '../../tools/todo-schemas.js';

export interface SettleInput {
  /** The session's keeper of the user's words and the trail (it remembers what it kept). */
  readonly trail: ArtifactTrailKeeper;
  /** What the strategy compressed. */
  readonly context: CompressionContext;
  readonly todos: readonly Todo[];
}

export function settledCompression(
  result: CompressionResult,
  { trail, context, todos }: SettleInput,
): CompressionResult {
  const kept = trail.keepTrail(result, {
    before: context.history,
    todos,
    workspaceRoot: context.workspaceRoot,
    contextLimit: context.settings.contextLimit,
    trail: context.settings['compression.artifactTrail'],
  });
  return kept.kind === 'applied' ? { ...kept, newHistory: settleReplies(kept.newHistory) } : kept;
}
