/** The strategies the demo compares: the three classic ones, high-density, and high-density with recency pruning. */
import type { CompressionStrategyName, EphemeralSettings } from '@dense/core';

export interface DemoVariant {
  /** Stable id: directory name of the run's project copy. */
  readonly id: string;
  /** Chart legend and the name in messages. */
  readonly label: string;
  /** The table's column header, one entry per line (kept narrow). */
  readonly header: readonly string[];
  readonly strategy: CompressionStrategyName;
  /** Session settings on top of the strategy and the context limit. */
  readonly settings?: EphemeralSettings;
}

export const DEMO_VARIANTS: readonly DemoVariant[] = [
  { id: 'middle-out', label: 'middle-out', header: ['middle-out'], strategy: 'middle-out' },
  {
    id: 'top-down-truncation',
    label: 'top-down-truncation',
    header: ['top-down', 'truncation'],
    strategy: 'top-down-truncation',
  },
  { id: 'one-shot', label: 'one-shot', header: ['one-shot'], strategy: 'one-shot' },
  { id: 'high-density', label: 'high-density', header: ['high-density'], strategy: 'high-density' },
  {
    id: 'high-density-recency',
    label: 'high-density + recency',
    header: ['high-density', '+ recency'],
    strategy: 'high-density',
    settings: { 'compression.density.recencyPruning': true },
  },
];

/**
 * The demo's context window: small enough that the classic strategies really compress during the
 * 44 turns (uncompressed, the script's history grows to 23,000 tokens), large enough for every turn.
 */
export const DEMO_CONTEXT_LIMIT = 16_000;
