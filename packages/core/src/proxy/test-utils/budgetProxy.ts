/**
 * The proxy's density step with a working budget, driven request by request for the budget's
 * tests: a store, the originals each request's recall entries keep, and a clock a second apart.
 */
import { ConversationStore } from '../decide/conversationStore.js';
import {
  densifyRequest,
  type DensifyOptions,
  type DensifyResult,
} from '../densify/densifyRequest.js';
import type { WireApi } from '../wire/wireHistory.js';

export interface BudgetProxy {
  readonly store: ConversationStore;
  /** Recall id → original text, as the recall archive would keep them. */
  readonly kept: Map<string, string>;
  readonly send: (body: string, extra?: Partial<DensifyOptions>) => DensifyResult;
}

export function budgetProxy(input: {
  readonly api: WireApi;
  /** Budget tokens; undefined for the default (`auto`). */
  readonly budget: number | undefined;
  readonly sessionId?: string;
}): BudgetProxy {
  const store = new ConversationStore();
  const kept = new Map<string, string>();
  let now = 1_000;
  const send = (body: string, extra: Partial<DensifyOptions> = {}): DensifyResult => {
    const result = densifyRequest({
      api: input.api,
      body: Buffer.from(body),
      sessionId: input.sessionId,
      store,
      now: (now += 1_000),
      pressureTokens: 1_000_000,
      workingBudget: { tokens: input.budget, longContext: false },
      ...extra,
    });
    for (const entry of result.recalls) kept.set(entry.id, entry.text);
    return result;
  };
  return { store, kept, send };
}
