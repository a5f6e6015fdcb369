/**
 * The working budget's plan, for the proxy's importers: its home is
 * `core/compression/workingBudget/planCompaction.ts`, which the CLI's high-density strategy uses too.
 */
export {
  COMPACT_TO_SHARE,
  EARLY_COMPACTION_SHARE,
  PLAN_REASONS,
  earlyBudgetOf,
  estimateWithCut,
  fitsBudget,
  planCompaction as planWireCompaction,
  type CompactionPlan,
  type CompactionPlanInput,
  type CompactionPlanReason,
} from '../../core/compression/workingBudget/planCompaction.js';
