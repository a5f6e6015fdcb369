/**
 * The prompt floor of one forwarded request (`budget/clientHistoryBound.ts`): set when the
 * working budget has compacted the conversation for a client whose compaction threshold is known,
 * so the reply can tell that client its history is full once it holds the bound.
 */
import type * as http from 'node:http';
import { agentClient } from '../budget/agentClient.js';
import { historyBound, promptToReport } from '../budget/clientHistoryBound.js';
import type { ConversationStore } from '../decide/conversationStore.js';
import type { DensifyResult } from '../densify/DensifyResult.js';
import { clientPromptTokens } from '../images/clientPromptTokens.js';
import type { RequestPricing } from './proxyStats.js';
import type { PromptFloor } from './reportedUsage.js';
import type { WireApi } from '../wire/wireHistory.js';

/** The floor, and what to do once a reply was raised by it. */
export interface RequestPromptFloor {
  readonly floor: PromptFloor;
  /** The reply told the client "full": counted against `MAX_SIGNALS` until it compacts. */
  readonly told: () => void;
}

export function requestPromptFloor(input: {
  readonly api: WireApi;
  readonly request: http.IncomingMessage;
  readonly result: DensifyResult;
  /** The request's sizes and images, as the meter prices it (`requestPricing`). */
  readonly pricing: RequestPricing;
  /** The working budget's tokens (undefined: the model's default). */
  readonly budgetTokens: number | undefined;
  readonly store: ConversationStore;
  /** When the request arrived (the store's clock). */
  readonly now: number;
}): RequestPromptFloor | undefined {
  const { api, request, result } = input;
  const client = agentClient({ api, userAgent: request.headers['user-agent'] });
  const id = result.conversationId;
  if (result.compaction === undefined || client === undefined || id === undefined) return undefined;
  const state = input.store.get(id, input.now);
  const bound = historyBound({
    model: result.model,
    longContext: String(request.headers['anthropic-beta'] ?? '').includes('context-1m'),
    client,
    budgetTokens: input.budgetTokens,
  });
  const sizes = input.pricing;
  return {
    floor: (reportedPrompt) =>
      promptToReport({
        bound,
        reportedPrompt,
        clientPrompt: clientPromptTokens({ ...sizes, sentPromptTokens: reportedPrompt }),
        signals: state.budget.historySignals ?? 0,
      }),
    told: () => {
      state.budget.historySignals = (state.budget.historySignals ?? 0) + 1;
    },
  };
}
