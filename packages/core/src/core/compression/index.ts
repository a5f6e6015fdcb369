/** The public surface of the compression framework. */
export * from './types.js';
export * from './densityPass.js';
export * from './densityVocabulary.js';
export * from './toolCallBoundary.js';
export * from './compressionStrategyFactory.js';
export * from './compressionErrors.js';
export * from './MiddleOutStrategy.js';
export * from './OneShotStrategy.js';
export * from './TopDownTruncationStrategy.js';
export * from './planSummarySplit.js';
export * from './planTopDownTruncation.js';
export * from './summaryRequest.js';
export * from './generateSummary.js';
export {
  sanitizeHistoryForCompression,
  elideMiddle,
  DEFAULT_MAX_TOOL_TEXT_CHARS,
  type SanitizeOptions,
} from './utils.js';
export * from './HighDensityStrategy.js';
export * from './density/index.js';
