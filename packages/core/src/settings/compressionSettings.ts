/** Settings of the compression domain: which strategy runs, when, and what density does. */
import { COMPRESSION_STRATEGIES } from '../core/compression/types.js';
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
    description: "Context window in tokens (default: the model's known window)",
    type: 'number',
    range: { integer: true, min: 1 },
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
    default: false,
    persistToProfile: true,
  },
  {
    key: 'compression.density.cacheAware',
    category: 'cli-behavior',
    description:
      'Defer density edits that would cost more in prompt-cache misses than they save (applied anyway near the threshold or when the cache is cold)',
    type: 'boolean',
    default: false,
    persistToProfile: true,
  },
  {
    key: 'compression.density.cachePaybackCalls',
    category: 'cli-behavior',
    description:
      'With cacheAware: apply an edit when it pays for its cache misses within this many calls',
    type: 'number',
    range: { integer: true, min: 0 },
    default: 10,
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
] as const;
