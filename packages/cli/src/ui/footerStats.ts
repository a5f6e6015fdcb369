/** The footer's numbers, read from the live session: model, strategy, context use, density savings. */
import type { CliSession } from '../session/CliSession.js';

export interface FooterStats {
  readonly provider: string;
  readonly model: string;
  readonly strategy: string;
  readonly usedTokens: number;
  readonly contextLimit: number;
  /** Tokens the density passes removed this session. */
  readonly reclaimedTokens: number;
  readonly profile?: string;
  /** Tools run without approval (`--yolo`). */
  readonly yolo?: boolean;
}

export function readFooterStats(cli: CliSession): FooterStats {
  const { session } = cli;
  return {
    provider: cli.providers.current.name,
    model: cli.providers.current.model,
    strategy: session.compression.currentStrategy().name,
    usedTokens: session.history.getTotalTokens(),
    contextLimit: session.runtime.contextLimit(),
    reclaimedTokens: session.stats.reclaimedTokens(),
    ...(cli.yolo === true ? { yolo: true } : {}),
    ...(cli.activeProfile === undefined ? {} : { profile: cli.activeProfile }),
  };
}
