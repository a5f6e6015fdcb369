/** What forwarding one request came to, as the meter records it. */
import type { Usage } from './usageMeter.js';

/**
 * How the reply ended: passed on whole, cut because the upstream dropped the connection
 * mid-reply, or cut because the client went away first.
 */
export type ReplyEnd = 'complete' | 'upstream-cut' | 'client-closed';

export interface ForwardOutcome {
  readonly status: number;
  readonly usage: Usage | undefined;
  readonly end: ReplyEnd;
  /** The reply told the client a larger prompt than the upstream's (`promptFloor`). */
  readonly usageRaised?: boolean;
}
