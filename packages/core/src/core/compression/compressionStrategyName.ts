/** The names of the compression strategies: settings, profiles and flags choose one of these. */
export const COMPRESSION_STRATEGIES = [
  'middle-out',
  'top-down-truncation',
  'one-shot',
  'high-density',
] as const;

export type CompressionStrategyName = (typeof COMPRESSION_STRATEGIES)[number];
