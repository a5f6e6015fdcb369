/** @dense/core: the headless engine behind the dense CLI, by capability. */

// The conversation history, its token counting and the edits density may make.
export {
  type ContentBlock,
  createAiMessage,
  createToolResponse,
  createUserMessage,
  getText,
  type IContent,
  textBlock,
  toolCallBlock,
  type ToolCallBlock,
  type ToolResponseBlock,
} from './services/history/IContent.js';
export {
  countO200kTokens,
  o200kTokenCounter,
  type TokenCounter,
} from './services/history/TokenCounter.js';
export { HistoryService } from './services/history/HistoryService.js';
export { pairToolCallsByPosition } from './services/history/toolCallPairing.js';

// Compression strategies and the high-density passes.
export {
  type CompressionContext,
  type CompressionNoopReason,
  type CompressionResult,
  type CompressionStrategy,
  type CompressionStrategyName,
  type DensityConfig,
  type DensityResult,
  findFileInclusions,
  formatFileInclusion,
  formatFileInclusions,
  getCompressionStrategy,
  HighDensityStrategy,
  INCLUSION_CLOSE,
  parseCompressionStrategyName,
} from './core/compression/index.js';
export { densityPassSwitches, type DensityPassSwitches } from './core/compression/densityPass.js';

// Settings: the registry, parsing, persistence and the generated reference.
export { describeRange, type SettingSpec } from './settings/settingSpec.js';
export {
  type EphemeralSettings,
  getSettingDefault,
  getSettingSpec,
  SETTING_KEYS,
  type SettingKey,
  SETTINGS_REGISTRY,
} from './settings/settingsRegistry.js';
export {
  formatSettingValue,
  parseSettingValue,
  resolveSettingKey,
  SettingError,
} from './settings/parseSettingValue.js';
export { type SettingSource, SettingsService } from './settings/SettingsService.js';
export { renderSettingsReference } from './settings/settingsReference.js';

// The runtime context: live settings, the spec's accessors over them, the session's facts.
export {
  type AgentRuntimeContext,
  type AgentRuntimeState,
  type EphemeralAccessors,
  type RuntimeConfig,
  type RuntimeContextReader,
} from './runtime/AgentRuntimeContext.js';
export {
  type AgentRuntimeContextOptions,
  createAgentRuntimeContext,
  FALLBACK_CONTEXT_LIMIT,
} from './runtime/createAgentRuntimeContext.js';
export { COMPUTED_ACCESSOR_KEYS, EPHEMERAL_ACCESSOR_KEYS } from './runtime/ephemeralAccessors.js';
export { runtimeContextSnapshot } from './runtime/runtimeContextSnapshot.js';

// Saved provider profiles.
export { type Profile, ProfileError, ProfileManager } from './profiles/ProfileManager.js';

// Providers: the interface, the concrete clients, model limits and retries.
export {
  createProvider,
  type GenerateRequest,
  getModelLimits,
  type IProvider,
  isProviderKind,
  knownModels,
  PROVIDER_KINDS,
  type ProviderChunk,
  type ProviderConfig,
  ProviderError,
  type RetryNotice,
} from './providers/index.js';

// Prompts: resolution, defaults and their errors.
export { DEFAULT_PROMPTS_DIR } from './core/prompts.js';
export { FilePromptResolver } from './prompt-config/FilePromptResolver.js';

// Tools, the todo list and the recall stores they read.
export {
  type ApprovalDecision,
  type ApprovalRequest,
  createDefaultToolRegistry,
  createToolContext,
  errnoCode,
  type FileSystem,
  formatTodoList,
  globToRegExp,
  hasGlobChars,
  isBinaryContent,
  nodeFileSystem,
  resolveWorkspacePath,
  splitGlobBase,
  ToolRegistry,
} from './tools/index.js';
export { TodoStore } from './services/todo/TodoStore.js';
export {
  FallbackRecallStore,
  InMemoryRecallStore,
  type RecallStore,
} from './services/recall/RecallStore.js';
export { RecordingRecallStore } from './services/recall/RecordingRecallStore.js';
export { ArchiveRecallStore } from './services/recall/ArchiveRecallStore.js';
export {
  type ArchiveLookup,
  RecallArchive,
  type RecallEntry,
  recallMissingMessage,
  type RecallMissingReason,
} from './recall/index.js';

// Shared utilities: typed errors, logging, paths, atomic writes, events.
export { DenseError, errorMessage } from './utils/errors.js';
export { type DensePaths, getDensePaths } from './utils/paths.js';
export { writeFileAtomic } from './utils/atomicWrite.js';
export { TypedEmitter } from './utils/TypedEmitter.js';
export { closestMatches, editDistance } from './utils/closestMatches.js';

// The chat turn and what follows a compression.
export {
  ChatCancelledError,
  type ChatEvent,
  ChatStepLimitError,
  ContextOverflowError,
  type ToolExecutor,
  type TurnSummary,
} from './core/chatTypes.js';
export { type CompressionHandlerEvents } from './core/CompressionHandler.js';

// Density scheduling, the pre-send step and its accounting.
export {
  type DensityPassTotals,
  type DensityTotals,
  type KeptOutTotals,
} from './session/ContextStats.js';

// The agent session and its tool executor.
export { AgentSession, type ContextReport } from './session/AgentSession.js';
export { registryToolExecutor } from './session/registryToolExecutor.js';

// Transcript importers and the session recording format.
export {
  checkImport,
  describeImportCheck,
  type ImportedSession,
  importTranscriptSessions,
  parseSessionLine,
  serializeSessionContent,
  serializeSessionEvent,
  serializeSessionHeader,
  type SessionHeader,
  type SkippedRecord,
  TranscriptError,
} from './transcripts/index.js';

// Reports: charts and their series.
export { renderLineChart } from './report/index.js';

// The replay of recorded sessions, its policies and metrics.
export {
  bucketOverhead,
  type CacheCostByProvider,
  type CacheEffect,
  cacheEffectVsNone,
  CallMetrics,
  type ClassificationDisagreement,
  CLAUDE_CODE_USAGE_MODEL,
  compareRecordedUsage,
  countRecordedCompactions,
  crossCheckOracle,
  getReplayPolicy,
  groundingRate,
  type IntentCounts,
  isRecordedSummary,
  listTranscriptFiles,
  memoTokenCounter,
  OFFLINE_SUMMARIZER_LABEL,
  OfflineSummaryProvider,
  type OverheadSample,
  type PreparedReplay,
  prepareReplay,
  REPLAY_POLICY_IDS,
  ReplayError,
  type ReplayPolicy,
  type ReplayPolicyId,
  type ReplayRun,
  replaySession,
  type ReplaySessionReport,
  type ReplayTotals,
  requestSample,
  totalReplayReports,
  type UsageComparison,
  zeroCacheCosts,
} from './replay/index.js';

// Prompt-cache rules and pricing.
export {
  CACHE_RULES,
  type CacheRules,
  cacheRulesFor,
  isCacheCold,
  outputMultiplierFor,
  weighPrompt,
} from './cache/index.js';

// The density proxy for real clients.
export {
  DEFAULT_ANTHROPIC_UPSTREAM,
  DEFAULT_OPENAI_UPSTREAM,
  DEFAULT_PRESSURE_TOKENS,
  formatStatusLine,
  formatSummary,
  type JsonNode,
  member,
  parseJsonSpans,
  proxyPointer,
  type ProxyRequestRecord,
  type ProxyServer,
  type ProxyServerOptions,
  sessionStatus,
  type SessionStatus,
  startProxyServer,
  STATUS_LINE_ROUTE,
  statusLineOf,
  stringMember,
} from './proxy/index.js';

// Users of a shared dense proxy: tokens, authentication.
export * from './gateway/auth/index.js';
// The team dashboard.
export * from './gateway/dashboard/index.js';
// Conversation state shared across proxy replicas.
export { connectRedis, parseStateUrl, StateUrlError } from './gateway/state/connectRedis.js';
export {
  DEFAULT_STATE_TIMEOUT_MS,
  RedisConversations,
} from './gateway/state/RedisConversations.js';
export type { SharedConversations } from './gateway/state/SharedConversations.js';
export {
  RedisRecallArchive,
  type RedisRecallArchiveOptions,
} from './gateway/recall/RedisRecallArchive.js';
// The proxy's client windows and default working budget (what `dense savings` replays with).
export {
  claudeCodeNative1M,
  clientWindow,
  defaultWorkingBudget,
} from './proxy/budget/workingBudget.js';
// The CLI's working budget setting (`compression.density.workingBudget`) as tokens.
export {
  AUTO_WORKING_BUDGET,
  workingBudgetTokens,
} from './core/compression/workingBudget/workingBudgetTokens.js';
