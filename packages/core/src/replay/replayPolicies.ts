/**
 * The context policies a replay can run: no management at all, Dense's strategies, and baselines
 * modelling what peer agents do. Each is settings plus, where needed, its own strategy object.
 */
import { getCompressionStrategy } from '../core/compression/compressionStrategyFactory.js';
import { HighDensityStrategy } from '../core/compression/HighDensityStrategy.js';
import { MiddleOutStrategy } from '../core/compression/MiddleOutStrategy.js';
import type { CompressionStrategy, CompressionStrategyName } from '../core/compression/types.js';
import type { EphemeralSettings } from '../settings/settingsRegistry.js';
import {
  BaselineStrategy,
  type BaselineEdit,
  type BaselinePorts,
} from './baselines/BaselineStrategy.js';
import { clineContextBudget, dedupFileCopies } from './baselines/dedupFileCopies.js';
import { keepRecentToolResults } from './baselines/keepRecentToolResults.js';
import { NoContextManagement } from './baselines/NoContextManagement.js';
import { maskOldObservations } from './baselines/observationMasking.js';
import { pruneOldToolOutput } from './baselines/pruneOldToolOutput.js';
import { withShellFileOps } from './baselines/withShellFileOps.js';
import { ReplayError } from './replayErrors.js';

export const REPLAY_POLICY_IDS = [
  'none',
  'recorded',
  'middle-out',
  'top-down-truncation',
  'one-shot',
  'high-density',
  'high-density+recency',
  'high-density+shell',
  'mask-10-turns',
  'keep-3-over-100k',
  'prune-40k-20k',
  'dedup-over-budget',
] as const;

export type ReplayPolicyId = (typeof REPLAY_POLICY_IDS)[number];

export interface ReplayPolicy {
  readonly id: ReplayPolicyId;
  readonly description: string;
  /** Settings the policy needs (the user's `--set` values go on top). */
  readonly settings: EphemeralSettings;
  /** Its strategy; `undefined`: the factory's strategy for `compression.strategy`. */
  readonly createStrategy?: (ports: BaselinePorts) => CompressionStrategy;
  /** The context limit is lifted: nothing is ever compressed (the reference policy). */
  readonly unlimited?: boolean;
  /** Its compression may call the summarizing model (the offline summarizer in a replay). */
  readonly usesSummarizer: boolean;
  /**
   * At each compaction the recorded agent made itself, the history becomes the recorded summary
   * (the `recorded` baseline); every other policy keeps the summary as the next message.
   */
  readonly followsRecordedCompactions?: boolean;
}

const strategySetting = (name: CompressionStrategyName): EphemeralSettings => ({
  'compression.strategy': name,
});

/** A peer baseline: its edit as `optimize()`, middle-out (offline summary) past the threshold. */
function baseline(
  id: ReplayPolicyId,
  description: string,
  edit: (ports: BaselinePorts) => BaselineEdit,
): ReplayPolicy {
  return {
    id,
    description: `${description}; past the threshold, middle-out compression`,
    // Peers apply their edits when they make them (Dense's batched schedule is Dense's own).
    settings: { ...strategySetting('middle-out'), 'compression.density.schedule': 'immediate' },
    createStrategy: (ports) => new BaselineStrategy(edit(ports), new MiddleOutStrategy()),
    usesSummarizer: true,
  };
}

const POLICIES: readonly ReplayPolicy[] = [
  {
    id: 'none',
    description:
      'no density, no compression, no context limit: every call sees the whole recording',
    settings: strategySetting('middle-out'),
    createStrategy: () => new NoContextManagement(),
    unlimited: true,
    usesSummarizer: false,
  },
  {
    id: 'recorded',
    description:
      "the agent's own compaction: no limit, and at each recorded compaction the history becomes the recorded summary",
    settings: strategySetting('middle-out'),
    createStrategy: () => new NoContextManagement(),
    unlimited: true,
    usesSummarizer: false,
    followsRecordedCompactions: true,
  },
  {
    id: 'middle-out',
    description: 'classic: summarize the middle past the threshold',
    settings: strategySetting('middle-out'),
    usesSummarizer: true,
  },
  {
    id: 'top-down-truncation',
    description: 'classic: drop the oldest entries past the threshold',
    settings: strategySetting('top-down-truncation'),
    usesSummarizer: false,
  },
  {
    id: 'one-shot',
    description: 'classic: summarize all but the tail past the threshold',
    settings: strategySetting('one-shot'),
    usesSummarizer: true,
  },
  {
    id: 'high-density',
    description: 'high-density with its defaults (READ→WRITE pruning, @ dedup)',
    settings: strategySetting('high-density'),
    usesSummarizer: false,
  },
  {
    id: 'high-density+recency',
    description: 'high-density with recency pruning (3 results per tool)',
    settings: { ...strategySetting('high-density'), 'compression.density.recencyPruning': true },
    usesSummarizer: false,
  },
  {
    id: 'high-density+shell',
    description: 'high-density with shell reads and writes in READ→WRITE (shellFileOps)',
    settings: strategySetting('high-density'),
    createStrategy: () => withShellFileOps(new HighDensityStrategy()),
    usesSummarizer: false,
  },
  baseline(
    'mask-10-turns',
    'mask tool results older than the last 10 turns',
    () => (history) => maskOldObservations(history),
  ),
  baseline(
    'keep-3-over-100k',
    'above 100k input tokens, clear all tool results but the newest 3',
    (ports) => (history) => keepRecentToolResults(history, ports.contextTokens()),
  ),
  baseline(
    'prune-40k-20k',
    'prune tool output beyond the newest 40k tokens when at least 20k would be freed',
    () => (history) => pruneOldToolOutput(history),
  ),
  baseline(
    'dedup-over-budget',
    "over Cline's budget, replace all but the newest copy of each file",
    (ports) => (history, config) =>
      dedupFileCopies(history, {
        workspaceRoot: config.workspaceRoot,
        overBudget: ports.contextTokens() >= clineContextBudget(ports.contextLimit()),
      }),
  ),
];

export function isReplayPolicyId(value: string): value is ReplayPolicyId {
  return (REPLAY_POLICY_IDS as readonly string[]).includes(value);
}

/** The policy with this id; a `ReplayError` listing the ids for anything else. */
export function getReplayPolicy(id: string): ReplayPolicy {
  const policy = POLICIES.find((candidate) => candidate.id === id);
  if (policy === undefined) {
    throw new ReplayError(
      'REPLAY_UNKNOWN_POLICY',
      `Unknown replay strategy '${id}'. Use one of: ${REPLAY_POLICY_IDS.join(', ')}.`,
    );
  }
  return policy;
}

export function replayPolicies(): readonly ReplayPolicy[] {
  return POLICIES;
}

/** The strategy a policy runs for the strategy name the settings select. */
export function policyStrategy(
  policy: ReplayPolicy,
  name: CompressionStrategyName,
  ports: BaselinePorts,
): CompressionStrategy {
  return policy.createStrategy?.(ports) ?? getCompressionStrategy(name);
}
