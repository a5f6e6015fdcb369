/**
 * Everything about a recorded session that does not depend on the policy, computed once: the
 * replay plan and the oracle's ledger with each exposure's token count.
 */
import type { TokenCounter } from '../services/history/TokenCounter.js';
import { o200kTokenCounter } from '../services/history/TokenCounter.js';
import type { ImportedSession } from '../transcripts/types.js';
import {
  buildExposureLedger,
  type Exposure,
  type ExposureLedger,
} from './oracle/exposureLedger.js';
import { planReplay, type ReplayPlan } from './planReplay.js';
import { translateWindowsPaths } from './translateWindowsPaths.js';

/** Where relative paths resolve when the recording names no working directory. */
export const DEFAULT_REPLAY_WORKSPACE = '/';

export interface PrepareOptions {
  /** Default o200k. */
  readonly tokenCounter?: TokenCounter;
  /**
   * `translate` (default): Windows paths become their POSIX form so density resolves them as Dense
   * on the recording machine would (see translateWindowsPaths.ts); `as-recorded`: left alone.
   */
  readonly windowsPaths?: 'translate' | 'as-recorded';
}

export interface PreparedReplay {
  readonly session: ImportedSession;
  /** The workspace the replay runs in (translated for Windows sessions). */
  readonly workspaceRoot: string;
  readonly plan: ReplayPlan;
  readonly ledger: ExposureLedger;
  /** Tokens of each exposure (its text's count × its share), by exposure id. */
  readonly exposureTokens: ReadonlyMap<number, number>;
}

export async function prepareReplay(
  session: ImportedSession,
  options: PrepareOptions = {},
): Promise<PreparedReplay> {
  const tokenCounter = options.tokenCounter ?? o200kTokenCounter;
  const recordedRoot = session.workspaceRoot ?? DEFAULT_REPLAY_WORKSPACE;
  const { contents, workspaceRoot } =
    options.windowsPaths === 'as-recorded'
      ? { contents: session.contents, workspaceRoot: recordedRoot }
      : translateWindowsPaths(session.contents, recordedRoot);
  const plan = planReplay(contents);
  const ledger = buildExposureLedger(plan.contents, { workspaceRoot });
  const counted = new Map<string, number>();
  const exposureTokens = new Map<number, number>();
  for (const exposure of ledger.exposures) {
    let count = counted.get(exposure.text);
    if (count === undefined) {
      count = await tokenCounter.countText(exposure.text);
      counted.set(exposure.text, count);
    }
    exposureTokens.set(exposure.id, Math.round(count * exposure.share));
  }
  return { session, workspaceRoot, plan, ledger, exposureTokens };
}

export function exposureTokensOf(prepared: PreparedReplay): (exposure: Exposure) => number {
  return (exposure) => prepared.exposureTokens.get(exposure.id) ?? 0;
}
