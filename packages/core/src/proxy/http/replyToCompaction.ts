/**
 * The server's side of the client's own compaction request (`budget/answerCompaction.ts`):
 * answered at once, not forwarded; the history signals of `clientHistoryBound.ts` end here.
 */
import { answerCompaction, type CompactionReply } from '../budget/answerCompaction.js';
import { conversationKey } from '../decide/conversationStore.js';
import { undecidedResult, type DensifyResult } from '../densify/DensifyResult.js';
import { finishRequest } from './finishRequest.js';
import type { ForwardOutcome } from '../meter/forwardOutcome.js';
import { keepOriginals, originalsOf } from './keepOriginals.js';
import { loadShared, saveShared } from './sharedState.js';
import type { ChatExchange, ProxyContext } from './proxyContext.js';
import type { WireApi } from '../wire/wireHistory.js';

/** Answers the client's compaction request itself, when it is one and that is on. */
export async function replyToCompaction(
  ctx: ProxyContext,
  api: WireApi,
  exchange: ChatExchange,
): Promise<boolean> {
  if (ctx.options.answerCompaction === false) return false;
  const sessionId = exchange.sessionId;
  const reply = answerCompaction(api, exchange.body);
  if (reply === undefined) return false;
  const conversationId = conversationKey(sessionId, reply.identity);
  const shared = await loadShared(ctx, conversationId);
  const endSignals = () => {
    ctx.store.get(conversationId, exchange.started).budget.historySignals = 0;
  };
  // Dense told the client its history was full: this compaction is Dense's doing.
  const induced = (ctx.store.get(conversationId, exchange.started).budget.historySignals ?? 0) > 0;
  endSignals();
  // Counted (the meter's state with it) and saved before the client reads the answer.
  record(ctx, { api, exchange, conversationId, reply, induced });
  // The summary names recall ids: their originals are kept (with the save) before the client reads it.
  const originals = originalsOf(ctx, { conversationId, recalls: reply.recalls }, exchange.user);
  if (shared) await saveShared(ctx, conversationId, endSignals, originals);
  else await keepOriginals(ctx, originals);
  exchange.response.writeHead(200, {
    'content-type': reply.contentType,
    'cache-control': 'no-cache',
  });
  exchange.response.end(reply.body);
  return true;
}

/** The answered compaction in the stats: billed nothing, priced against the client's own call. */
function record(
  ctx: ProxyContext,
  input: {
    readonly api: WireApi;
    readonly exchange: Pick<ChatExchange, 'body' | 'started' | 'user'>;
    readonly conversationId: string;
    readonly reply: Pick<CompactionReply, 'messages' | 'body' | 'coveredBytes' | 'summaryBytes'>;
    readonly induced: boolean;
  },
): void {
  const { api, exchange, conversationId, reply, induced } = input;
  const provider = api === 'anthropic' ? 'anthropic' : 'openai';
  const result: DensifyResult = {
    ...undecidedResult(exchange.body, conversationId, provider),
    compaction: {
      kind: 'answered',
      cut: reply.messages,
      ...(induced ? { induced } : {}),
      summaryTokens: Math.round(reply.body.length / 4),
      coveredBytes: reply.coveredBytes,
      summaryBytes: reply.summaryBytes,
    },
  };
  const outcome: ForwardOutcome = { status: 200, usage: undefined, end: 'complete' };
  // Priced against the client's own compaction call (`directClient.ts`).
  const size = exchange.body.length;
  const pricing = { provider: result.provider, originalBytes: size, sentBytes: size };
  const user = exchange.user;
  finishRequest(ctx, { route: api, started: exchange.started, result, pricing, outcome, user });
}
