/** The replay's own typed errors, and the signal that ends a replayed turn. */
import { DenseError } from '../utils/errors.js';

/**
 * Thrown by the replay provider when the turn loop asks for a reply the recording does not have
 * (the recording moved on to a human message after tool results). The engine catches it; the call
 * that raised it is not counted.
 */
export class ReplayTurnEnd extends DenseError {
  readonly code = 'REPLAY_TURN_END';

  constructor() {
    super('The recorded turn has no further model reply.');
  }
}

export type ReplayErrorCode =
  'REPLAY_UNKNOWN_POLICY' | 'REPLAY_NO_TRANSCRIPTS' | 'REPLAY_BAD_OPTION';

export class ReplayError extends DenseError {
  constructor(
    readonly code: ReplayErrorCode,
    message: string,
  ) {
    super(message);
  }
}
