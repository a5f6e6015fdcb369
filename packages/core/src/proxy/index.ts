/** `dense proxy`: request-side high density in front of any agent's model API. */
export * from './decide/conversationStore.js';
export * from './densify/densifyRequest.js';
export * from './wire/jsonSpans.js';
export * from './decide/proxySchedule.js';
export * from './http/proxyServer.js';
export * from './meter/passThroughCost.js';
export * from './meter/proxyReport.js';
export * from './meter/proxyStats.js';
export * from './meter/proxyRecord.js';
export * from './meter/proxyTotals.js';
export { sessionStatus, type SessionStatus } from './meter/sessionStatus.js';
export { compactTokens, formatStatusLine } from './meter/formatStatusLine.js';
export { STATUS_LINE_ROUTE, statusLineOf } from './http/statusLineRoute.js';
export * from './decide/sentPointers.js';
export * from './meter/usageMeter.js';
export type { WireApi } from './wire/wireHistory.js';
export * from './budget/workingBudget.js';
export {
  COMPACTION_MARKER,
  COMPACTION_TASK,
  CODEX_COMPACTION_MARKER,
  QWEN_COMPACTION_DIRECTIVE,
  QWEN_COMPACTION_PROMPT,
} from './budget/clientCompactionRequests.js';
export { answerCompaction, type CompactionReply } from './budget/answerCompaction.js';
export { agentClient, type AgentClient } from './budget/agentClient.js';
export * from './decide/proxyPointer.js';
