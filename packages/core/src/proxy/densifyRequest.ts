/**
 * The proxy's request-side density step: read the body, decide which tool results to send as the
 * pointer (sticky ones always, new ones by the schedule), splice them into the original text.
 * Fails open: anything it does not fully understand comes back as the original bytes.
 */
import { createHash } from 'node:crypto';
import { cacheRulesFor, type CacheProviderName } from '../cache/cacheRules.js';
import { errorMessage } from '../utils/errors.js';
import { readAnthropicRequest } from './anthropicHistory.js';
import {
  conversationKey,
  type ConversationState,
  type ConversationStore,
} from './conversationStore.js';
import { parseJsonSpans, type JsonNode } from './jsonSpans.js';
import { readOpenAIRequest } from './openaiHistory.js';
import { planProxyEdits } from './planProxyEdits.js';
import { scheduleEdits, type ScheduleDecision, type ScheduleReason } from './proxySchedule.js';
import { spliceEdits } from './spliceEdits.js';
import type { ReadOutcome, ResultSite, WireApi, WireHistory } from './wireHistory.js';

export interface DensifyOptions {
  readonly api: WireApi;
  readonly body: Buffer;
  /** The client's session header, when it sends one. */
  readonly sessionId: string | undefined;
  readonly store: ConversationStore;
  readonly now: number;
  /** Estimated prompt tokens at which every prunable result is sent at once. */
  readonly pressureTokens: number;
  /**
   * Only repeat the conversation's sticky pointers, change no state (token counting: the count
   * the client gets matches what its next message will send).
   */
  readonly readOnly?: boolean;
}

export interface DensifyResult {
  readonly body: Buffer;
  readonly conversationId: string | undefined;
  /** Why the request went out unchanged, when it could not be read. */
  readonly unsupported?: string;
  /** True the first time this conversation hit that reason (log it once). */
  readonly firstTimeReason?: boolean;
  readonly schedule: ScheduleReason;
  /** Results sent as the pointer on this request (sticky + new). */
  readonly pointers: number;
  /** Results newly added this request (a new batch). */
  readonly newEdits: number;
  readonly removedChars: number;
  /** Messages the previous request also had are byte-identical (undefined on the first). */
  readonly prefixStable: boolean | undefined;
}

function read(api: WireApi, text: string, root: JsonNode): ReadOutcome {
  return api === 'anthropic'
    ? readAnthropicRequest(text, root)
    : readOpenAIRequest(text, root, api);
}

function rulesFor(api: WireApi, text: string) {
  const name: CacheProviderName =
    api !== 'anthropic' ? 'openai' : /"ttl"\s*:\s*"1h"/.test(text) ? 'anthropic-1h' : 'anthropic';
  return cacheRulesFor(name);
}

function messageHashes(text: string, wire: WireHistory, sites: readonly ResultSite[]): string[] {
  const byMessage = new Map<number, ResultSite[]>();
  for (const site of sites) {
    const list = byMessage.get(site.messageIndex) ?? [];
    list.push(site);
    byMessage.set(site.messageIndex, list);
  }
  return wire.messageSpans.map((span, index) => {
    const inside = (byMessage.get(index) ?? []).map((site) => ({
      ...site,
      start: site.start - span.start,
      end: site.end - span.start,
    }));
    const spliced = spliceEdits(text.slice(span.start, span.end), inside).text;
    return createHash('sha1').update(spliced).digest('base64');
  });
}

function passThrough(options: DensifyOptions, reason: string, id?: string): DensifyResult {
  let firstTimeReason = true;
  if (id !== undefined) {
    const state = options.store.get(id, options.now);
    firstTimeReason = !state.loggedReasons.has(reason);
    state.loggedReasons.add(reason);
    state.lastRequestAt = options.now;
  }
  return {
    body: options.body,
    conversationId: id,
    unsupported: reason,
    firstTimeReason,
    schedule: 'none',
    pointers: 0,
    newEdits: 0,
    removedChars: 0,
    prefixStable: undefined,
  };
}

function prefixStable(
  previous: readonly string[],
  current: readonly string[],
): boolean | undefined {
  if (previous.length === 0) return undefined;
  // The client moves its cache breakpoint off the previous newest message: compare the ones before.
  const compare = Math.min(previous.length - 1, current.length);
  for (let index = 0; index < compare; index++) {
    if (previous[index] !== current[index]) return false;
  }
  return true;
}

/** Never throws: a failure anywhere forwards the original body and says why. */
export function densifyRequest(options: DensifyOptions): DensifyResult {
  const text = options.body.toString('utf8');
  if (text.includes('\uFFFD')) return passThrough(options, 'body is not clean UTF-8');
  let outcome: ReadOutcome;
  let root: JsonNode;
  try {
    root = parseJsonSpans(text);
    outcome = read(options.api, text, root);
  } catch (error) {
    return passThrough(options, `request not parsed: ${errorMessage(error)}`);
  }
  if (outcome.kind === 'unsupported') {
    return passThrough(options, outcome.reason, conversationKey(options.sessionId, ''));
  }
  try {
    return densifyWire(options, text, outcome.wire);
  } catch (error) {
    return passThrough(options, `density failed: ${errorMessage(error)}`);
  }
}

function decide(
  options: DensifyOptions,
  text: string,
  wire: WireHistory,
  state: ConversationState,
): ScheduleDecision {
  if (options.readOnly === true) return { apply: [], reason: 'none' };
  const candidates = [...planProxyEdits(wire)]
    .filter((callId) => !state.applied.has(callId))
    .flatMap((callId) => wire.sites.get(callId) ?? []);
  const spans = wire.messageSpans;
  const messagesStart = spans[0]?.start ?? 0;
  const messagesChars = (spans.at(-1)?.end ?? messagesStart) - messagesStart;
  const prefixCharsAt = (offset: number) => text.length - messagesChars + (offset - messagesStart);
  return scheduleEdits({
    candidates,
    messageCount: wire.messageCount,
    totalChars: text.length,
    newestPrefixChars: prefixCharsAt(spans.at(-1)?.start ?? messagesStart),
    prefixCharsAt,
    gapMs: state.lastRequestAt === undefined ? undefined : options.now - state.lastRequestAt,
    hasPrevious: state.lastRequestAt !== undefined,
    requestsSoFar: state.totals.requests,
    rules: rulesFor(options.api, text),
    pressureTokens: options.pressureTokens,
  });
}

function densifyWire(options: DensifyOptions, text: string, wire: WireHistory): DensifyResult {
  const id = conversationKey(options.sessionId, wire.identity);
  const state = options.store.get(id, options.now);
  const sticky = [...state.applied].flatMap((callId) => wire.sites.get(callId) ?? []);
  const decision = decide(options, text, wire, state);
  const sites = [...sticky, ...decision.apply];
  const splice = spliceEdits(text, sites);
  let stable: boolean | undefined;
  if (options.readOnly !== true) {
    for (const site of decision.apply) state.applied.add(site.callId);
    const hashes = messageHashes(text, wire, sites);
    stable = prefixStable(state.lastMessageHashes, hashes);
    state.lastMessageHashes = hashes;
    state.lastRequestAt = options.now;
    if (decision.apply.length > 0) state.totals.batches++;
  }
  return {
    body: sites.length === 0 ? options.body : Buffer.from(splice.text, 'utf8'),
    conversationId: id,
    schedule: decision.reason,
    pointers: sites.length,
    newEdits: decision.apply.length,
    removedChars: splice.removedChars,
    prefixStable: stable,
  };
}
