/**
 * The scheduler's ledger for one proxied conversation: what density's pointers and its replies at
 * entry saved so far against the same requests passed through, priced call by call
 * (`DensityCacheLedger`), which makes the conversation's risk budget. When fewer pointers apply
 * than before (the client compacted or rewound its history), the earlier removals are forgotten,
 * as after a compression; the replies still in the request count from there.
 */
import { COMPRESSION_SETTINGS } from '../../settings/compressionSettings.js';
import type { CacheProviderName } from '../../cache/index.js';
import {
  DensityCacheLedger,
  type DensityCacheLedgerSnapshot,
} from '../../scheduler/densityCacheLedger.js';
import type { ConversationState } from './conversationStore.js';

function numberDefault(key: string): number {
  const setting: { readonly key: string; readonly default?: unknown } | undefined =
    COMPRESSION_SETTINGS.find((s) => s.key === key);
  return typeof setting?.default === 'number' ? setting.default : 0;
}

/** The registry's defaults, the same the CLI's scheduler uses. */
export const PROXY_PAYBACK_CALLS = numberDefault('compression.density.cachePaybackCalls');
export const PROXY_RISK_ALLOWANCE = numberDefault('compression.density.cacheRiskAllowance');

interface LedgerState {
  readonly ledger: DensityCacheLedger;
  /** Tokens the pointers of the previous request removed. */
  removedTokens: number;
  /** Tokens the replies at entry of the previous request kept out. */
  keptOutTokens: number;
}

const LEDGERS = new WeakMap<ConversationState, LedgerState>();

function stateOf(conversation: ConversationState): LedgerState {
  let state = LEDGERS.get(conversation);
  if (state === undefined) {
    state = { ledger: new DensityCacheLedger(), removedTokens: 0, keptOutTokens: 0 };
    LEDGERS.set(conversation, state);
  }
  return state;
}

/** A conversation's ledger as plain data; undefined when it has none yet. */
export interface ProxyLedgerSnapshot {
  readonly ledger: DensityCacheLedgerSnapshot;
  readonly removedTokens: number;
  readonly keptOutTokens: number;
}

export function proxyLedgerSnapshot(
  conversation: ConversationState,
): ProxyLedgerSnapshot | undefined {
  const state = LEDGERS.get(conversation);
  return state === undefined
    ? undefined
    : {
        ledger: state.ledger.snapshot(),
        removedTokens: state.removedTokens,
        keptOutTokens: state.keptOutTokens,
      };
}

export function restoreProxyLedger(
  conversation: ConversationState,
  snapshot: ProxyLedgerSnapshot,
): void {
  LEDGERS.set(conversation, {
    ledger: DensityCacheLedger.restore(snapshot.ledger),
    removedTokens: snapshot.removedTokens,
    keptOutTokens: snapshot.keptOutTokens,
  });
}

/** The most a new batch may cost up front in this conversation (base-input-token units). */
export function proxyRiskBudget(
  conversation: ConversationState,
  provider: CacheProviderName,
  allowance: number = PROXY_RISK_ALLOWANCE,
): number {
  return stateOf(conversation).ledger.riskBudget(provider, allowance);
}

export interface ProxyRequestRecord {
  readonly at: number;
  /** Tokens the pointers already sent remove from this request. */
  readonly stickyRemovedTokens: number;
  /** Tokens the replies at entry keep out of this request (each result's original less its reply). */
  readonly keptOutTokens: number;
  /** The new batch: what it removes and the cached tokens it loses (0, 0 when none). */
  readonly batch: { readonly removedTokens: number; readonly invalidatedTokens: number };
  /** Estimated tokens of the request as forwarded. */
  readonly promptTokens: number;
}

/** Prices one forwarded request into the conversation's ledger. */
export function recordProxyRequest(
  conversation: ConversationState,
  record: ProxyRequestRecord,
): void {
  const state = stateOf(conversation);
  // Fewer pointers than before: the client compacted or rewound; the ledger forgets both removals.
  const rewound = record.stickyRemovedTokens < state.removedTokens;
  if (rewound) state.ledger.compressed();
  const { removedTokens, invalidatedTokens } = record.batch;
  if (removedTokens > 0) {
    const rewritten = Math.max(0, invalidatedTokens - removedTokens);
    state.ledger.edit(removedTokens, rewritten, rewritten);
  }
  // Replies are priced as the CLI prices them (`keptOut`): content that never entered the cache.
  const keptOut = record.keptOutTokens - (rewound ? 0 : state.keptOutTokens);
  if (keptOut >= 0) state.ledger.keptOut(keptOut);
  else state.ledger.restored(-keptOut);
  state.ledger.modelCall(record.at, record.promptTokens);
  state.removedTokens = record.stickyRemovedTokens + removedTokens;
  state.keptOutTokens = record.keptOutTokens;
}
