/**
 * The early compaction's risk rule, for the proxy's importers: its home is
 * `core/compression/workingBudget/earlyCompactionRisk.ts`, beside the plan both the proxy and the
 * CLI use.
 */
export {
  compactionBooking,
  withinRisk,
  type EarlyCompactionRisk,
} from '../../core/compression/workingBudget/earlyCompactionRisk.js';
