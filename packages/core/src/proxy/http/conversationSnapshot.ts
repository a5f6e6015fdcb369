/**
 * A conversation's state as plain data: everything that decides the bytes its next readable
 * request is sent as (pointers applied, replies at entry, the standing compaction and its
 * calibration, the scheduler's ledger, the time of the last request), and the stale results'
 * pointer verdicts (so no replica counts their tokens again). Local caches (reads, plans,
 * fingerprint digests, splices) are not in it: a replica rebuilds them from the request, and the
 * bytes it sends are the same either way. Nor is what the previous request sent, pointer by
 * pointer and message by message (megabytes at 1M tokens of history): on another replica a
 * request the proxy cannot read goes out without the earlier pointers (a cache miss, on the
 * fail-open path only) and the prefix-stability meter starts again. Stored compressed.
 */
import { gunzipSync, gzipSync } from 'node:zlib';
import { newConversation, type ConversationState } from '../decide/conversationStore.js';
import type { BudgetState } from '../budget/compactWire.js';
import { EntryReplyDecisions, type EntryReplyDecision } from '../decide/entryReplyDecisions.js';
import { PointerVerdicts } from '../decide/pointerVerdicts.js';
import type { ConversationMeter } from '../meter/proxyStats.js';
import {
  proxyLedgerSnapshot,
  restoreProxyLedger,
  type ProxyLedgerSnapshot,
} from '../decide/proxyLedger.js';

export const SNAPSHOT_FORMAT = 2;

export interface ConversationSnapshot {
  readonly format: typeof SNAPSHOT_FORMAT;
  readonly applied: readonly string[];
  readonly lastRequestAt?: number;
  readonly budget: BudgetState;
  readonly entryReplies: readonly (readonly [string, EntryReplyDecision])[];
  readonly ledger?: ProxyLedgerSnapshot;
  /** How the meter prices the conversation's next request against pass-through. */
  readonly meter?: ConversationMeter;
  /** Stale results' pointer verdicts (`recallId:verdict`): no replica counts their tokens again. */
  readonly pointerVerdicts?: readonly string[];
}

export function conversationSnapshot(
  state: ConversationState,
  meter?: ConversationMeter,
): ConversationSnapshot {
  const ledger = proxyLedgerSnapshot(state);
  return {
    format: SNAPSHOT_FORMAT,
    applied: [...state.applied],
    ...(state.lastRequestAt === undefined ? {} : { lastRequestAt: state.lastRequestAt }),
    budget: state.budget,
    entryReplies: state.entryReplies.entries(),
    ...(state.pointerVerdicts.known.size === 0
      ? {}
      : { pointerVerdicts: state.pointerVerdicts.entries() }),
    ...(ledger === undefined ? {} : { ledger }),
    ...(meter === undefined ? {} : { meter }),
  };
}

export function restoreConversation(id: string, snapshot: ConversationSnapshot): ConversationState {
  const state: ConversationState = {
    ...newConversation(id),
    applied: new Set(snapshot.applied),
    lastRequestAt: snapshot.lastRequestAt,
    budget: { ...snapshot.budget },
    entryReplies: EntryReplyDecisions.restore(snapshot.entryReplies),
    pointerVerdicts: PointerVerdicts.restore(snapshot.pointerVerdicts),
  };
  if (snapshot.ledger !== undefined) restoreProxyLedger(state, snapshot.ledger);
  return state;
}

export class SnapshotError extends Error {
  readonly code = 'DENSE_STATE_SNAPSHOT_INVALID';
}

/** The snapshot as stored: gzipped JSON. */
export function encodeSnapshot(snapshot: ConversationSnapshot): Buffer {
  return gzipSync(Buffer.from(JSON.stringify(snapshot), 'utf8'), { level: 1 });
}

export function decodeSnapshot(data: Buffer): ConversationSnapshot {
  let parsed: unknown;
  try {
    parsed = JSON.parse(gunzipSync(data).toString('utf8'));
  } catch (error) {
    throw new SnapshotError(`a stored conversation state does not decode (${String(error)})`);
  }
  if (
    typeof parsed !== 'object' ||
    parsed === null ||
    (parsed as { format?: unknown }).format !== SNAPSHOT_FORMAT
  ) {
    throw new SnapshotError(
      `a stored conversation state has another format than ${SNAPSHOT_FORMAT}; it is ignored`,
    );
  }
  return parsed as ConversationSnapshot;
}
