/**
 * The end of one request: its record in the stats (priced when it can be), the budget's
 * calibration from the upstream's own count, and the request line in the log.
 */
import type { DensifyResult } from '../densify/DensifyResult.js';
import type { ForwardOutcome } from '../meter/forwardOutcome.js';
import type { Usage } from '../meter/usageMeter.js';
import { textTokensPerChar } from '../images/imageTurnChars.js';
import type { ProxyContext } from './proxyContext.js';
import { formatRequestLine } from '../meter/proxyReport.js';
import { COUNT_TOKENS_ROUTE, type RequestPricing } from '../meter/proxyStats.js';
import { type ProxyRequestRecord } from '../meter/proxyRecord.js';

/**
 * The upstream's own count calibrates the conversation's next estimate against the budget. Per
 * character, not per byte: the budget measures the request in characters.
 */
export function calibrate(
  ctx: ProxyContext,
  result: DensifyResult,
  pricing: RequestPricing | undefined,
  usage: Usage | undefined,
): void {
  if (result.conversationId === undefined) return;
  const state = ctx.store.get(result.conversationId, ctx.now());
  const prompt = usage === undefined ? 0 : usage.input + usage.cacheCreation + usage.cacheRead;
  const perChar = textTokensPerChar({
    promptTokens: prompt,
    sentChars: result.sentChars ?? 0,
    sentImages: pricing?.sentImages,
  });
  if (perChar !== undefined) state.budget.promptTokensPerChar = perChar;
}

/** Who requests without a token are, on the dashboard (tokens are optional on loopback). */
export const LOCAL_USER = 'local';

export function finishRequest(
  ctx: ProxyContext,
  input: {
    route: string;
    started: number;
    result: DensifyResult;
    pricing: RequestPricing | undefined;
    outcome: ForwardOutcome;
    /** The token's user; requests without one are counted as `LOCAL_USER`. */
    user: string | undefined;
  },
): void {
  const { result, outcome } = input;
  const entry: ProxyRequestRecord = {
    at: input.started,
    route: input.route,
    status: outcome.status,
    end: outcome.end,
    conversationId: result.conversationId,
    durationMs: Math.max(0, Math.round(ctx.now() - input.started)),
    usage: outcome.usage,
    removedChars: result.removedChars,
    pointers: result.pointers,
    ...(result.replies ? { replies: result.replies } : {}),
    newEdits: result.newEdits,
    schedule: result.schedule,
    prefixStable: result.prefixStable,
    ...(result.compaction === undefined ? {} : { compaction: result.compaction }),
    ...(result.unsupported === undefined ? {} : { unsupported: result.unsupported }),
    ...(result.passThrough === undefined ? {} : { passThrough: result.passThrough }),
  };
  if (input.route !== COUNT_TOKENS_ROUTE) calibrate(ctx, result, input.pricing, outcome.usage);
  const stored = ctx.stats.record(entry, input.pricing);
  ctx.options.timeline?.record(input.user ?? LOCAL_USER, stored);
  ctx.options.log?.(formatRequestLine(stored, ctx.options.color === true));
}
