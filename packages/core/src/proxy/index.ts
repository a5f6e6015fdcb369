/** `dense proxy`: request-side high density in front of any agent's model API. */
export * from './conversationStore.js';
export * from './densifyRequest.js';
export * from './jsonSpans.js';
export * from './proxySchedule.js';
export * from './proxyServer.js';
export * from './passThroughCost.js';
export * from './proxyReport.js';
export * from './proxyStats.js';
export * from './sentPointers.js';
export * from './usageMeter.js';
export type { WireApi } from './wireHistory.js';
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
export * from './proxyPointer.js';
