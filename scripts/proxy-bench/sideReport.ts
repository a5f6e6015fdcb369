/**
 * What one side of the bench paid, from the mock's bills: the cache-weighted prompt of every
 * request plus the output of its compaction requests (the only output that differs between the
 * sides: every model call streams the same recorded reply on both), and when the proxy side's
 * client compacts at a recorded boundary. Pure.
 */
import type { BilledRequest } from './cacheBillingMock.js';
import type { ClientApi } from './clientRequests.js';

/**
 * Output price × base input price: Claude Sonnet/Opus output is 5× input (e.g. $15 vs $3 per
 * million), GPT-5 output 8× input ($10 vs $1.25).
 */
export const OUTPUT_MULTIPLIER: Readonly<Record<ClientApi, number>> = {
  anthropic: 5,
  'openai-responses': 8,
};

/**
 * Last reported context from which the client compacts by itself: recorded Claude Code sessions
 * triggered at 155–158k (reported usage plus the results appended since, which the transcript's
 * last usage leaves out: one recorded compaction followed a reply reporting 154.8k), so 150k.
 */
export const AUTO_COMPACT_TOKENS = 150_000;

export interface SideReport {
  readonly requests: number;
  /** Cache-weighted prompt units plus compaction output × OUTPUT_MULTIPLIER. */
  readonly cost: number;
  readonly promptCost: number;
  readonly compactions: number;
  readonly compactionCost: number;
  readonly promptTokens: number;
  readonly cacheReadTokens: number;
  readonly cacheWriteTokens: number;
}

export function sideReport(
  bills: readonly BilledRequest[],
  compactionRequests: readonly number[],
  api: ClientApi,
): SideReport {
  const compactions = new Set(compactionRequests);
  let promptCost = 0;
  let compactionOutput = 0;
  let compactionCost = 0;
  let promptTokens = 0;
  let cacheReadTokens = 0;
  let cacheWriteTokens = 0;
  bills.forEach((bill, i) => {
    promptCost += bill.weighted;
    promptTokens += bill.promptTokens;
    cacheReadTokens += bill.cacheReadTokens;
    cacheWriteTokens += bill.cacheWriteTokens;
    if (!compactions.has(i)) return;
    const output = bill.outputTokens * OUTPUT_MULTIPLIER[api];
    compactionOutput += output;
    compactionCost += bill.weighted + output;
  });
  return {
    requests: bills.length,
    cost: promptCost + compactionOutput,
    promptCost,
    compactions: compactions.size,
    compactionCost,
    promptTokens,
    cacheReadTokens,
    cacheWriteTokens,
  };
}

export interface CompactionInput {
  /** The context the recorded client reported before the boundary, when the transcript has it. */
  readonly recordedContext: number | undefined;
  /** The last prompt each side sent before the boundary, in the bench's tokens. */
  readonly passThroughPrompt: number;
  readonly proxyPrompt: number;
}

/**
 * Whether the client behind the proxy compacts where the recorded client did. A recorded
 * compaction below the auto-compaction trigger (asked for by the user) happens on both sides.
 * Otherwise the proxy side's client sees the recorded context scaled by what the proxy sent
 * against what the pass-through side sent, and compacts when that reaches the trigger. Without
 * a recorded context it compacts unless the proxy sent less.
 */
export function proxySideCompacts(input: CompactionInput): boolean {
  const { recordedContext, passThroughPrompt, proxyPrompt } = input;
  if (recordedContext === undefined || passThroughPrompt <= 0) {
    return proxyPrompt >= passThroughPrompt;
  }
  if (recordedContext < AUTO_COMPACT_TOKENS) return true;
  return (recordedContext * proxyPrompt) / passThroughPrompt >= AUTO_COMPACT_TOKENS;
}
