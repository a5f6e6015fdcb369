/**
 * Room `densify/`: one request read → decided → budgeted → spliced; imports decide/ and below.
 *
 * The proxy's request-side density step: read the body, decide which tool results to send as the
 * pointer (the ones density finds stale in this request: those already sent always, new ones by
 * the schedule), splice them into the original text. Fails open: anything it does not fully
 * understand comes back as the original bytes, with only the pointers already sent repeated where
 * that is byte-exact (`sentPointers.ts`).
 */
import { isUtf8 } from 'node:buffer';
import { recallIdOfResponse } from '../../core/compression/recallPointers.js';
import {
  cacheRulesFor,
  requestCacheProvider,
  type CacheProviderName,
} from '../../cache/cacheRules.js';
import { isCacheCold } from '../../cache/priceCall.js';
import { errorMessage } from '../../utils/errors.js';
import { passThroughRequest } from './passThroughRequest.js';
import {
  conversationKey,
  type ConversationState,
  type ConversationStore,
} from '../decide/conversationStore.js';
import { stringMember } from '../wire/jsonSpans.js';
import type { ReadKey } from '../wire/keptRead.js';
import type { RequestRead } from '../wire/requestReadCache.js';
import type { SegmentedText, TextSlices } from '../wire/segmentedText.js';
import { pointerSite, pointerVerdictAt, recallEntryAt } from '../decide/proxyPointer.js';
import { scheduleEdits, type ScheduleDecision } from '../decide/proxySchedule.js';
import { mergedByStart, pointerValue, type PointerSite } from '../splice/spliceEdits.js';
import { reusedSplice, type SpliceMemo } from '../splice/reusedSplice.js';
import { wireCache, wireShape } from '../decide/wireCache.js';
import { PROXY_PAYBACK_CALLS, proxyRiskBudget } from '../decide/proxyLedger.js';
import type { ResultSite, WireHistory } from '../wire/wireHistory.js';
import { settleUnderBudget } from './settleUnderBudget.js';
import { rememberRequest } from './rememberRequest.js';
import type { EarlyCompactionRisk } from '../budget/earlyCompactionRisk.js';
import type { DensifyOptions, DensifyResult } from './DensifyResult.js';

export type { CompactionNote, DensifyOptions, DensifyResult } from './DensifyResult.js';
export type { WorkingBudgetOptions } from './settleUnderBudget.js';

/**
 * A request read for density: its conversation is known before anything is decided (a shared
 * store brings that conversation's state up to date in between), or it goes out as read.
 */
export type RequestReading =
  | {
      readonly kind: 'read';
      readonly conversationId: string;
      readonly read: RequestRead;
      readonly wire: WireHistory;
    }
  | {
      readonly kind: 'unread';
      /** Known when the reader got far enough to name the conversation. */
      readonly conversationId: string | undefined;
      /** The original bytes, with the pointers already sent repeated where byte-exact. */
      readonly passThrough: () => DensifyResult;
    };

/** Never throws: a body it cannot read comes back as a pass-through that says why. */
export function readForDensity(options: DensifyOptions): RequestReading {
  const unread = (input: Parameters<typeof passThroughRequest>[1]): RequestReading => ({
    kind: 'unread',
    conversationId:
      input.identity === undefined ? undefined : conversationKey(options.sessionId, input.identity),
    passThrough: () => passThroughRequest(options, input),
  });
  // U+FFFD is ordinary text; only bytes that do not decode would not survive the round trip.
  if (!isUtf8(options.body)) return unread({ reason: 'body is not valid UTF-8' });
  let read: RequestRead;
  try {
    read = options.store.reads.read({
      api: options.api,
      body: options.body,
      sessionId: options.sessionId,
    });
  } catch (error) {
    const text = options.body.toString('utf8');
    return unread({ reason: `request not parsed: ${errorMessage(error)}`, text });
  }
  const { outcome } = read;
  if (outcome.kind === 'unsupported') {
    return unread({ reason: outcome.reason, text: read.text, identity: outcome.identity ?? '' });
  }
  const conversationId = conversationKey(options.sessionId, outcome.wire.identity);
  return { kind: 'read', conversationId, read, wire: outcome.wire };
}

/** Decides and splices a request read by `readForDensity`. Never throws. */
export function densifyReading(options: DensifyOptions, reading: RequestReading): DensifyResult {
  if (reading.kind === 'unread') return reading.passThrough();
  const { read, wire } = reading;
  try {
    const model = stringMember(read.root, 'model');
    return densifyWire(options, read.segments, { wire, model, read });
  } catch (error) {
    const reason = `density failed: ${errorMessage(error)}`;
    return passThroughRequest(options, { reason, text: read.text, identity: wire.identity });
  }
}

/** Never throws: a failure anywhere forwards the original body and says why. */
export function densifyRequest(options: DensifyOptions): DensifyResult {
  return densifyReading(options, readForDensity(options));
}

/**
 * Site keys by site object: the read cache hands a request the previous request's site objects
 * only for messages whose bytes it verified, blocks and all, so the key is the same.
 */
const SITE_KEYS = new WeakMap<ResultSite, string>();

/** The last splice of each conversation, for the read that resumes from this one's. */
const SPLICES = new WeakMap<
  ConversationState,
  { readonly read: ReadKey; readonly memo: SpliceMemo }
>();

/** A result's identity across requests: its position and its recall id (call id, tool, content). */
function siteKey(wire: WireHistory, site: ResultSite): string {
  const known = SITE_KEYS.get(site);
  if (known !== undefined) return known;
  const key = freshSiteKey(wire, site);
  SITE_KEYS.set(site, key);
  return key;
}

function freshSiteKey(wire: WireHistory, site: ResultSite): string {
  const block = wire.history[site.messageIndex]?.blocks[site.blockIndex];
  const content = block?.type === 'tool_response' ? recallIdOfResponse(block) : '';
  return `${site.messageIndex}:${site.blockIndex}:${content}`;
}

function decide(
  options: DensifyOptions,
  text: SegmentedText,
  wire: WireHistory,
  input: {
    readonly state: ConversationState;
    readonly candidates: readonly ResultSite[];
    readonly provider: CacheProviderName;
  },
): ScheduleDecision {
  const { state, candidates } = input;
  // Nothing new to prune (most requests): no cache model to build over the whole request.
  if (options.readOnly === true || candidates.length === 0) {
    return { apply: [], reason: 'none', removedTokens: 0, invalidatedTokens: 0 };
  }
  const rules = cacheRulesFor(input.provider);
  return scheduleEdits({
    candidates,
    messageCount: wire.messageCount,
    totalChars: text.length,
    cache: wireCache(wireShape(text, wire)),
    gapMs: gapSincePrevious(state, options.now),
    hasPrevious: state.lastRequestAt !== undefined,
    rules,
    pressureTokens: options.pressureTokens,
    paybackCalls: PROXY_PAYBACK_CALLS,
    riskBudget: proxyRiskBudget(state, rules.provider),
    pointerChars: (site) => pointerValue(pointerSite(wire, site)).length,
  });
}

/** Real time since the conversation's previous request (undefined on its first). */
function gapSincePrevious(state: ConversationState, now: number): number | undefined {
  return state.lastRequestAt === undefined ? undefined : now - state.lastRequestAt;
}

/** What a compaction not needed yet may risk in this conversation (`compactWire`). */
function earlyRiskOf(
  state: ConversationState,
  provider: CacheProviderName,
  now: number,
): EarlyCompactionRisk {
  const rules = cacheRulesFor(provider);
  return {
    riskTokens: () => proxyRiskBudget(state, rules.provider) + (state.budget.compactionNet ?? 0),
    readMultiplier: rules.readMultiplier,
    writeMultiplier: rules.writeMultiplier,
    cold: isCacheCold(rules, gapSincePrevious(state, now)),
  };
}

function densifyWire(
  options: DensifyOptions,
  text: SegmentedText,
  request: {
    readonly wire: WireHistory;
    readonly model: string | undefined;
    readonly read: RequestRead;
  },
): DensifyResult {
  const { wire, read } = request;
  const id = conversationKey(options.sessionId, wire.identity);
  const state = options.store.get(id, options.now);
  const { stale, sticky, candidates } = staleSites(options.store, wire, read, state);
  const provider = requestCacheProvider(options.api, text, read.oneHourTtlPrefix);
  const decision = decide(options, text, wire, { state, candidates, provider });
  const runs = pointerRuns(wire, sticky, decision.apply);
  const pointers = runs.flat();
  const { compacted, replies } = settleUnderBudget(options, {
    ...request,
    text,
    state,
    pointers,
    compactionReads: options.store.compactionReads,
    earlyRisk: earlyRiskOf(state, provider, options.now),
  });
  // In text order once: the splice, the fingerprints and the next request read them so.
  const sites = mergedByStart<PointerSite>([...runs, replies.sites]);
  const splice = spliceOf(options, { text, read, state, sites });
  const removed = splice.removedChars;
  const stable =
    options.readOnly === true
      ? undefined
      : rememberRequest(options, {
          ...{ text, wire, state, stale, sticky, decision, sites, removed, read },
          replies: replies.sites,
        });
  const chunks = compacted.kind === 'none' ? splice.chunks : compacted.parts;
  return sentAs(chunks, {
    ...(request.model === undefined ? {} : { model: request.model }),
    conversationId: id,
    provider,
    schedule: decision.reason,
    pointers: pointers.length,
    replies: replies.sites.length,
    newEdits: decision.apply.length,
    recalls: [
      ...decision.apply.map((site) => recallEntryAt(wire, site)),
      ...replies.recalls,
      ...(compacted.kind === 'compacted' ? compacted.recalls : []),
    ],
    removedChars: removed + (compacted.kind === 'none' ? 0 : compacted.removedChars),
    sentChars: compacted.kind === 'none' ? text.length - removed : compacted.chars,
    // A new compaction rewrites the cached prefix from the summary on.
    prefixStable: compacted.kind === 'compacted' && stable !== undefined ? false : stable,
    ...(compacted.kind === 'none'
      ? {}
      : { compaction: { kind: compacted.kind, cut: compacted.cut } }),
  });
}

/** The request's pointers as runs in request order: those already sent, then the new batch. */
function pointerRuns(
  wire: WireHistory,
  sticky: readonly { readonly site: ResultSite }[],
  apply: readonly ResultSite[],
): readonly (readonly PointerSite[])[] {
  return [
    sticky.map(({ site }) => pointerSite(wire, site)),
    apply.map((site) => pointerSite(wire, site)),
  ];
}

/** The splice of this request, from where the previous one's still holds. */
function spliceOf(
  options: DensifyOptions,
  input: {
    readonly text: TextSlices;
    readonly read: RequestRead;
    readonly state: ConversationState;
    readonly sites: readonly PointerSite[];
  },
) {
  const { read, state } = input;
  const last = SPLICES.get(state);
  const previous =
    last !== undefined && read.resumedFrom?.key === last.read ? last.memo : undefined;
  const splice = reusedSplice(options.body, input.text, input.sites, {
    ...(read.byteAnchors === undefined ? {} : { anchors: read.byteAnchors }),
    ...(previous === undefined ? {} : { previous }),
  });
  if (read.key === undefined) SPLICES.delete(state);
  else SPLICES.set(state, { read: read.key, memo: splice.memo });
  return splice;
}

/**
 * The result with its body as chunks, joined only if `body` is read: the server forwards the
 * chunks, so an unchanged prefix of the request is never copied.
 */
function sentAs(
  parts: readonly (Buffer | string)[],
  result: Omit<DensifyResult, 'body' | 'chunks'>,
): DensifyResult {
  const chunks = parts.map((part) => (typeof part === 'string' ? Buffer.from(part, 'utf8') : part));
  let joined: Buffer | undefined;
  return {
    ...result,
    chunks,
    get body(): Buffer {
      joined ??= Buffer.concat(chunks);
      return joined;
    },
  };
}

/**
 * Only results density finds stale in this very request: a sticky pointer whose write is gone
 * (the client rewound its history) is a live read again and goes out intact.
 */
function staleSites(
  store: ConversationStore,
  wire: WireHistory,
  read: RequestRead,
  state: ConversationState,
) {
  // A stale read is pointed only when its pointer costs fewer tokens than the read.
  const verdicts = state.pointerVerdicts;
  const stale = store.plans
    .plan(wire, read)
    .filter((site) => {
      const { recallId, verdict } = pointerVerdictAt(wire, site, verdicts.known);
      verdicts.set(recallId, verdict);
      return verdict !== 'n';
    })
    .map((site) => ({ site, key: siteKey(wire, site) }));
  const sticky: typeof stale = [];
  const candidates: ResultSite[] = [];
  for (const entry of stale) {
    if (state.applied.has(entry.key)) sticky.push(entry);
    else candidates.push(entry.site);
  }
  return { stale, sticky, candidates };
}
