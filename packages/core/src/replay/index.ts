/** Replay of recorded agent sessions through the real pipeline, with the stale/live oracle. */
export * from './replayErrors.js';
export * from './planReplay.js';
export * from './prepareReplay.js';
export * from './replayPolicies.js';
export * from './replayReport.js';
export * from './replaySession.js';
export {
  openSentLog,
  SentLog,
  SentLogError,
  sentLine,
  type SentLogFile,
  type SentLogTarget,
  type SentSink,
} from './sentLog.js';
export * from './sentLogName.js';
export { type OverheadSample } from './ReplayRecorder.js';
export * from './OfflineSummaryProvider.js';
export * from './memoTokenCounter.js';
export * from './listTranscriptFiles.js';
export * from './overheadBuckets.js';
export { IntentOracle, sumIntent, ZERO_INTENT, type IntentCounts } from './intent/IntentOracle.js';
export { planIntent, type UserMessage } from './intent/planIntent.js';
export {
  EXPOSURE_CATEGORIES,
  buildExposureLedger,
  type Exposure,
  type ExposureCategory,
  type ExposureLedger,
} from './oracle/exposureLedger.js';
export { type LossVerdict } from './oracle/classifyLoss.js';
export {
  type CategoryTokens,
  type ExposureLoss,
  type LossCause,
} from './oracle/ExposureTracker.js';
export { CallMetrics, requestSample, type CallSample } from './metrics/CallMetrics.js';
export { cacheEffectVsNone, type CacheEffect, type ProviderEffect } from './metrics/cacheEffect.js';
export {
  sumCacheCosts,
  zeroCacheCosts,
  type CacheCostByProvider,
  type CacheCostTotals,
} from './metrics/cacheCost.js';
export * from './crossCheckOracle.js';
export * from './recordedCompactions.js';
export { SPECIFIC_KINDS, type Specific, type SpecificKind } from './grounding/extractSpecifics.js';
export {
  type GroundingCounts,
  type GroundingExample,
  type GroundingTotals,
  type GroundingVerdict,
} from './grounding/GroundingOracle.js';
export { groundingRate, sumGrounding } from './grounding/sumGrounding.js';
export { type WorkRedoneCounts } from './grounding/WorkRedoneCounter.js';
export * from './metrics/recordedUsage.js';
export { type SummarizationTotals } from './metrics/CallMetrics.js';
