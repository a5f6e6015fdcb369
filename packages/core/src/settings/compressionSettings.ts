/** Settings of the compression domain: which strategy runs, when, and what density does. */
import { COMPRESSION_STRATEGIES } from '../core/compression/compressionStrategyName.js';
import { POINTER_STYLES } from '../core/compression/recallPointers.js';
import { AUTO_WORKING_BUDGET } from '../core/compression/workingBudget/workingBudgetTokens.js';
import { DENSITY_SCHEDULE_MODES } from '../scheduler/densitySchedule.js';
import type { NumericRange } from './settingSpec.js';

const FRACTION: NumericRange = { min: 0, minExclusive: true, max: 1 };

export const COMPRESSION_SETTINGS = [
  {
    key: 'compression.strategy',
    category: 'cli-behavior',
    description: 'How history is kept within the context window',
    type: 'enum',
    enumValues: COMPRESSION_STRATEGIES,
    default: 'high-density',
    persistToProfile: true,
  },
  {
    key: 'compression.profile',
    category: 'cli-behavior',
    description:
      'Saved profile whose provider and model write LLM summaries (default: the active one)',
    type: 'string',
    persistToProfile: true,
  },
  {
    key: 'compression-threshold',
    category: 'cli-behavior',
    description:
      "Fraction of the context limit at which compression runs (default: the strategy's own, 0.85)",
    type: 'number',
    range: FRACTION,
    persistToProfile: true,
  },
  {
    key: 'context-limit',
    category: 'model-behavior',
    description: "Context window in tokens, at least 1000 (default: the model's known window)",
    type: 'number',
    range: { integer: true, min: 1, typedMin: 1000 },
    persistToProfile: true,
  },
  {
    key: 'compression.preserveThreshold',
    category: 'cli-behavior',
    description: 'Fraction of the newest history entries compression keeps verbatim',
    type: 'number',
    range: FRACTION,
    default: 0.4,
    persistToProfile: true,
  },
  {
    key: 'compression.topPreserveThreshold',
    category: 'cli-behavior',
    description: 'Fraction of the oldest history entries middle-out keeps verbatim',
    type: 'number',
    range: FRACTION,
    default: 0.2,
    persistToProfile: true,
  },
  {
    key: 'compression.density.readWritePruning',
    category: 'cli-behavior',
    description: 'Enable READ→WRITE pair pruning in high-density strategy',
    type: 'boolean',
    default: true,
    persistToProfile: true,
  },
  {
    key: 'compression.density.fileDedupe',
    category: 'cli-behavior',
    description: 'Enable duplicate @ file inclusion deduplication',
    type: 'boolean',
    default: true,
    persistToProfile: true,
  },
  {
    key: 'compression.density.recencyPruning',
    category: 'cli-behavior',
    description: 'Enable tool result recency pruning (keep last N per tool type)',
    type: 'boolean',
    default: false,
    persistToProfile: true,
  },
  {
    key: 'compression.density.recencyRetention',
    category: 'cli-behavior',
    description: 'Number of recent results to keep per tool type',
    type: 'number',
    range: { integer: true, min: 1 },
    default: 3,
    persistToProfile: true,
  },
  {
    key: 'compression.density.shellFileOps',
    category: 'cli-behavior',
    description:
      'READ→WRITE pruning also understands plain shell reads and writes (cat, sed -n, sed -i, > file)',
    type: 'boolean',
    default: true,
    persistToProfile: true,
  },
  {
    key: 'compression.density.unchangedReads',
    category: 'cli-behavior',
    description:
      'high-density: a re-read, a repeated output of a call that touches no file, or a repeated @ inclusion, identical to a copy still in context, is recorded as a short note naming that copy',
    type: 'boolean',
    default: true,
    persistToProfile: true,
  },
  {
    key: 'compression.density.schedule',
    category: 'cli-behavior',
    description:
      'batched: density edits wait for a cheap moment (cold cache, compression, payback, context pressure; edits near the end go at once); immediate: every edit at once',
    type: 'enum',
    enumValues: DENSITY_SCHEDULE_MODES,
    default: 'batched',
    persistToProfile: true,
  },
  {
    key: 'compression.density.cacheAware',
    category: 'cli-behavior',
    description: 'Old name: true forces compression.density.schedule batched',
    type: 'boolean',
    default: false,
    persistToProfile: true,
  },
  {
    key: 'compression.density.cachePaybackCalls',
    category: 'cli-behavior',
    description:
      'Batched schedule: edits are applied when they pay for their cache misses within this many calls',
    type: 'number',
    range: { integer: true, min: 0 },
    default: 15,
    persistToProfile: true,
  },
  {
    key: 'compression.density.cacheRiskAllowance',
    category: 'cli-behavior',
    description:
      'Batched schedule: a batch may cost up front at most what density saved so far plus this fraction of the cost so far without density',
    type: 'number',
    range: { min: 0, max: 1 },
    default: 0.02,
    persistToProfile: true,
  },
  {
    key: 'compression.density.compressHeadroom',
    category: 'cli-behavior',
    description:
      'high-density compress() aims at threshold × context limit × this factor, leaving headroom',
    type: 'number',
    range: FRACTION,
    default: 0.6,
    persistToProfile: true,
  },
  {
    key: 'compression.density.workingBudget',
    category: 'cli-behavior',
    description:
      "high-density keeps the history under this working budget by compacting early with the proxy's plan and deterministic summary (no LLM call): tokens, or a share of the context window when at most 1; auto: the proxy's rule for the window and threshold (at most 75% of the window, the threshold less room for the next result, 80,000 tokens); 0 or off: only the threshold compresses",
    type: 'number',
    range: { min: AUTO_WORKING_BUDGET, typedMin: 0 },
    words: { off: 0, auto: AUTO_WORKING_BUDGET },
    default: AUTO_WORKING_BUDGET,
    persistToProfile: true,
  },
  {
    key: 'compression.density.pointerStyle',
    category: 'cli-behavior',
    description:
      "What a pruned or summarized result leaves behind: 'recall' names an id the recall tool returns the original for; 'spec' is the spec's 're-run tool' pointer",
    type: 'enum',
    enumValues: POINTER_STYLES,
    default: 'recall',
    persistToProfile: true,
  },
  {
    key: 'compression.toolOutputCap',
    category: 'cli-behavior',
    description:
      'Largest fraction of the context window one tool output may take, with every strategy; a longer output is kept whole for recall and the model sees its first and last lines and the recall id',
    type: 'number',
    range: FRACTION,
    default: 0.25,
    persistToProfile: true,
  },
  {
    key: 'compression.artifactTrail',
    category: 'cli-behavior',
    description:
      'After every compression, put back the files and commands the session touched and the todo list',
    type: 'boolean',
    default: true,
    persistToProfile: true,
  },
] as const;
