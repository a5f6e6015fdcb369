/**
 * Room `meter/`: usage, pricing and stats; imports densify/ and the rooms below it.
 *
 * What the proxy reports: one record per request (route, conversation, billed usage, how the reply
 * ended, what density removed, whether the cached prefix stayed byte-identical, and what the
 * request cost against passing it through unchanged), the live stderr line, the `GET /dense/stats`
 * JSON and the summary table printed at exit. Per-conversation entries are bounded: past
 * `maxConversations` the least recently active one is folded into one `dropped` total. A
 * `count_tokens` probe is a request in the totals, never a conversation's.
 *
 * Context: the upstream side is the prompt the provider reported for the request as forwarded;
 * the client side is that prompt's text scaled by the bytes the client sent over the bytes
 * forwarded, images counted by their provider's rule (`clientPromptTokens`: the estimate of the
 * request as the client holds it). Compactions avoided: each client
 * compaction request Dense answered, plus each time the client's held context (prompt + output)
 * grew by its compaction threshold since the last such count while the context reported to it
 * (upstream prompt + output) stayed under that threshold: a client passed through would have
 * compacted there once (and again after regrowing a threshold's worth).
 */
import { cacheRulesFor, type CacheProviderName } from '../../cache/cacheRules.js';
import { DirectClients, sessionOf, type DirectSessionState } from './directClients.js';
import { replacedBytesOf } from './directClient.js';
import { clientPromptTokens } from '../images/clientPromptTokens.js';
import { passThroughCost, type PassThroughState } from './passThroughCost.js';
import type { ImageLoad } from '../images/requestImages.js';
import type { Usage } from './usageMeter.js';
import type { ProxyRequestRecord, RequestContext } from './proxyRecord.js';
import { addRecord, sumTotals, ZERO_TOTALS, type ProxyTotals } from './proxyTotals.js';
import { forgetOldest } from '../../utils/newestFirst.js';

/** What a billed request needs to be priced against passing it through. */
export interface RequestPricing {
  readonly provider: CacheProviderName;
  readonly originalBytes: number;
  readonly sentBytes: number;
  /** The base64 images of each body (`bodyImageLoad`); absent: none. */
  readonly originalImages?: ImageLoad;
  readonly sentImages?: ImageLoad;
  /** The client's own compaction threshold (reported tokens), when known for its model. */
  readonly clientThreshold?: number;
}

export interface ProxyStatsJson {
  readonly totals: ProxyTotals;
  readonly conversations: Readonly<Record<string, ProxyTotals>>;
  /** Conversations dropped from `conversations` to keep it bounded, summed. */
  readonly dropped: { readonly conversations: number; readonly totals: ProxyTotals };
  readonly recent: readonly ProxyRequestRecord[];
}

export interface ProxyStatsOptions {
  /** Conversations kept apart in the stats (default 256); older ones are summed in `dropped`. */
  readonly maxConversations?: number;
}

const RECENT = 100;

/** The route of Anthropic's `count_tokens` probes: counted as requests, never as conversations. */
export const COUNT_TOKENS_ROUTE = 'anthropic count_tokens';
export const DEFAULT_STATS_CONVERSATIONS = 256;

/** The images forwarded requests left out: the client's less those sent (none when unknown). */
function removedImagesOf(pricing: RequestPricing): ImageLoad | undefined {
  const original = pricing.originalImages;
  if (original === undefined || original.chars === 0) return undefined;
  const sent = pricing.sentImages;
  const chars = Math.max(0, original.chars - (sent?.chars ?? 0));
  return chars === 0
    ? undefined
    : { chars, tokens: Math.max(0, original.tokens - (sent?.tokens ?? 0)) };
}

/** A conversation's meter state (`ProxyStats.meterOf`). */
export interface ConversationMeter {
  readonly passThrough?: PassThroughState;
  readonly context?: RequestContext;
  readonly keptUnderMark: number;
  readonly direct: DirectSessionState;
}

interface ConversationEntry {
  totals: ProxyTotals;
  passThrough: PassThroughState | undefined;
  context: RequestContext | undefined;
  /** The client's held context (prompt + output) at the last `kept-under` count; 0 before. */
  keptUnderMark: number;
}

/** Whether this request counts as the client kept under its threshold since `mark`. */
function keptUnder(
  usage: Usage,
  context: RequestContext,
  threshold: number | undefined,
  mark: number,
): boolean {
  if (threshold === undefined) return false;
  const held = context.clientTokens + usage.output;
  const reported = context.upstreamTokens + usage.output;
  return held >= mark + threshold && reported < threshold;
}

export class ProxyStats {
  private totals: ProxyTotals = ZERO_TOTALS;
  private readonly perConversation = new Map<string, ConversationEntry>();
  private dropped = { conversations: 0, totals: ZERO_TOTALS };
  private readonly recent: ProxyRequestRecord[] = [];
  private readonly maxConversations: number;
  /** The client passed through, per session, for the pass-through side (`directClients.ts`). */
  private readonly direct: DirectClients;

  constructor(options: ProxyStatsOptions = {}) {
    this.maxConversations = Math.max(1, options.maxConversations ?? DEFAULT_STATS_CONVERSATIONS);
    this.direct = new DirectClients(this.maxConversations);
  }

  /**
   * Adds one request; with `pricing` and reported usage it is priced against pass-through.
   * Returns the record as stored (with its cost).
   */
  record(input: ProxyRequestRecord, pricing?: RequestPricing): ProxyRequestRecord {
    if (input.route === COUNT_TOKENS_ROUTE) return this.recordProbe(input);
    const key = input.conversationId ?? '(none)';
    const entry: ConversationEntry = this.perConversation.get(key) ?? {
      totals: ZERO_TOTALS,
      passThrough: undefined,
      context: undefined,
      keptUnderMark: 0,
    };
    const answered = input.compaction?.kind === 'answered';
    // A compaction Dense made the client do is no compaction the client avoided.
    let record: ProxyRequestRecord =
      answered && input.compaction?.induced !== true
        ? { ...input, compactionAvoided: 'answered' }
        : input;
    const removedImages = pricing === undefined ? undefined : removedImagesOf(pricing);
    if (removedImages !== undefined) record = { ...record, removedImages };
    if (answered && pricing !== undefined) record = this.priceAnswered(record, pricing);
    else if (pricing !== undefined && input.usage !== undefined) {
      record = this.priceForwarded(record, entry, { pricing, usage: input.usage });
    }
    const previous = entry.context;
    entry.totals = addRecord(entry.totals, record, previous);
    this.totals = addRecord(this.totals, record, previous);
    entry.context = record.context ?? previous;
    this.perConversation.delete(key);
    this.perConversation.set(key, entry);
    this.bound();
    this.remember(record);
    return record;
  }

  /**
   * A client compaction Dense answered: billed nothing; passed through, the client's own would
   * have been a model call over the history it held, unless Dense made it compact.
   */
  private priceAnswered(record: ProxyRequestRecord, pricing: RequestPricing): ProxyRequestRecord {
    const passThrough = this.direct.answered({
      conversationId: record.conversationId,
      induced: record.compaction?.induced === true,
      rules: cacheRulesFor(pricing.provider),
      at: record.at,
      clientBytes: pricing.originalBytes,
      ...replacedBytesOf(record.compaction),
    });
    return passThrough === undefined ? record : { ...record, cost: { billed: 0, passThrough } };
  }

  /** A forwarded request with reported usage, priced against the direct client's same request. */
  private priceForwarded(
    record: ProxyRequestRecord,
    entry: ConversationEntry,
    input: { readonly pricing: RequestPricing; readonly usage: Usage },
  ): ProxyRequestRecord {
    const { pricing, usage } = input;
    const rules = cacheRulesFor(pricing.provider);
    const upstreamTokens = usage.input + usage.cacheCreation + usage.cacheRead;
    const clientTokens = clientPromptTokens({ ...pricing, sentPromptTokens: upstreamTokens });
    const direct = this.direct.before({
      conversationId: record.conversationId,
      clientTokens,
      threshold: pricing.clientThreshold,
      rules,
      at: record.at,
      conversationPrevious: entry.passThrough,
    });
    const priced = passThroughCost({
      ...pricing,
      usage,
      rules,
      at: record.at,
      previous: direct.previous,
      carriedTokens: direct.carriedTokens,
    });
    // The direct client compacting here, or (no history carried) the client's own history passing
    // its threshold again while the context it is told stays under: a compaction avoided.
    const directContext = { upstreamTokens, clientTokens: direct.promptTokens };
    const avoided =
      direct.compacted ||
      keptUnder(usage, directContext, pricing.clientThreshold, entry.keptUnderMark);
    if (direct.compacted) entry.keptUnderMark = 0;
    else if (avoided) entry.keptUnderMark = direct.promptTokens + usage.output;
    entry.passThrough = priced.state;
    this.direct.priced(direct.session, priced.state);
    const passThrough = priced.cost.passThrough + direct.compactionCost;
    return {
      ...record,
      cost: { billed: priced.cost.billed, passThrough },
      context: { upstreamTokens, clientTokens },
      ...(avoided ? { compactionAvoided: 'kept-under' as const } : {}),
    };
  }

  private remember(record: ProxyRequestRecord): void {
    this.recent.push(record);
    if (this.recent.length > RECENT) this.recent.shift();
  }

  /**
   * A `count_tokens` probe: a request in the totals and in `recent`, but no conversation's (it
   * neither opens, counts toward nor refreshes one, so probes never push real conversations into
   * `dropped`). It bills no prompt and changes no context.
   */
  private recordProbe(record: ProxyRequestRecord): ProxyRequestRecord {
    const unbilled = { ...record, usage: undefined, cost: undefined, context: undefined };
    this.totals = addRecord(this.totals, unbilled, undefined);
    this.remember(record);
    return record;
  }

  /**
   * What decides how the conversation's next request is priced against pass-through (its previous
   * pass-through request, context, kept-under mark, its session's direct client), as plain data:
   * replicas share it so each prices a request as one process would.
   */
  meterOf(conversationId: string): ConversationMeter | undefined {
    const entry = this.perConversation.get(conversationId);
    if (entry === undefined) return undefined;
    return {
      ...(entry.passThrough === undefined ? {} : { passThrough: entry.passThrough }),
      ...(entry.context === undefined ? {} : { context: entry.context }),
      keptUnderMark: entry.keptUnderMark,
      direct: this.direct.sessionState(sessionOf(conversationId)),
    };
  }

  restoreMeter(conversationId: string, meter: ConversationMeter): void {
    const entry = this.perConversation.get(conversationId);
    this.perConversation.set(conversationId, {
      totals: entry?.totals ?? ZERO_TOTALS,
      passThrough: meter.passThrough,
      context: meter.context,
      keptUnderMark: meter.keptUnderMark,
    });
    this.direct.restoreSession(sessionOf(conversationId), meter.direct);
    this.bound();
  }

  toJSON(): ProxyStatsJson {
    return {
      totals: this.totals,
      conversations: Object.fromEntries(
        [...this.perConversation].map(([key, entry]) => [key, entry.totals]),
      ),
      dropped: this.dropped,
      recent: [...this.recent],
    };
  }

  private bound(): void {
    forgetOldest(this.perConversation, this.maxConversations, (_, entry) => {
      this.dropped = {
        conversations: this.dropped.conversations + 1,
        totals: sumTotals(this.dropped.totals, entry.totals),
      };
    });
  }
}
