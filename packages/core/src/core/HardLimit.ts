/**
 * The hard limit of a send: the history, the message about to be added and the tokens reserved
 * for the reply must fit the context window. Arithmetic only; `CompressionHandler` decides what
 * to do when they do not.
 */
import { ContextOverflowError } from './chatTypes.js';

/** Reserve for the reply when none is configured: 10% of the window, at most 8,192 tokens. */
export function defaultCompletionReserve(contextLimit: number): number {
  return Math.min(8192, Math.floor(contextLimit * 0.1));
}

export interface HardLimitOptions {
  readonly contextLimit: () => number;
  /** The history's token total now. */
  readonly historyTokens: () => number;
  /** Tokens kept free for the model's reply; default `defaultCompletionReserve`. */
  readonly completionReserve?: () => number;
}

export class HardLimit {
  constructor(private readonly options: HardLimitOptions) {}

  reserve(): number {
    return (
      this.options.completionReserve?.() ?? defaultCompletionReserve(this.options.contextLimit())
    );
  }

  /** Tokens the history may take so that `pendingTokens` and the reserve still fit. */
  room(pendingTokens: number): number {
    return this.options.contextLimit() - this.reserve() - pendingTokens;
  }

  exceeds(pendingTokens: number): boolean {
    return this.options.historyTokens() > this.room(pendingTokens);
  }

  /**
   * Throws `ContextOverflowError` (message alone too large) when the message and the reserve
   * exceed the window on their own, before anything irreversible is done.
   */
  refuseIfNeverFits(pendingTokens: number): void {
    if (this.room(pendingTokens) < 0) throw this.overflowError(pendingTokens, true);
  }

  overflowError(pendingTokens: number, messageAlone = false): ContextOverflowError {
    const history = this.options.historyTokens();
    const reserve = this.reserve();
    return new ContextOverflowError(
      history + pendingTokens + reserve,
      this.options.contextLimit(),
      { history, pending: pendingTokens, reserve },
      messageAlone,
    );
  }
}
