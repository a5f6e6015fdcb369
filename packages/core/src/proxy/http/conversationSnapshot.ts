/**
 * A conversation's state as plain data: everything that decides the bytes its next readable
 * request is sent as (pointers applied, replies at entry, the standing compaction and its
 * calibration, the scheduler's ledger, the time of the last request), and the stale results'
 * pointer verdicts (so no replica counts their tokens again). Local caches (reads, plans,
 * fingerprint digests, splices) are not in it: a replica rebuilds them from the request, and the
 * bytes it sends are the same either way. Nor is what the previous request sent, pointer by
 * pointer and message by message (megabytes at 1M tokens of history): on another replica a
 * request the proxy cannot read goes out without the earlier pointers (a cache miss, on the
 * fail-open path only) and the prefix-stability meter starts again. Stored compressed, the
 * standing compaction apart (`encodeCompaction`): it is most of the bytes and changes only when
 * the conversation compacts again, so a save that keeps it sends and encodes only the rest.
 */
import { gunzipSync, gzipSync } from 'node:zlib';
import { newConversation, type ConversationState } from '../decide/conversationStore.js';
import type { BudgetState, WireCompactionState } from '../budget/compactWire.js';
import { EntryReplyDecisions, type EntryReplyDecision } from '../decide/entryReplyDecisions.js';
import { PointerVerdicts } from '../decide/pointerVerdicts.js';
import type { ConversationMeter } from '../meter/proxyStats.js';
import {
  proxyLedgerSnapshot,
  restoreProxyLedger,
  type ProxyLedgerSnapshot,
} from '../decide/proxyLedger.js';

export const SNAPSHOT_FORMAT = 3;
/** Format 2 held the standing compaction inside the snapshot: still read. */
const INLINE_COMPACTION_FORMAT = 2;

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

/**
 * The snapshot as stored, without its standing compaction (`encodeCompaction` stores that):
 * gzipped JSON.
 */
export function encodeSnapshot(snapshot: ConversationSnapshot): Buffer {
  const { compaction: _apart, ...budget } = snapshot.budget;
  return gzipped({ ...snapshot, budget });
}

/** A standing compaction as stored: gzipped JSON. */
export function encodeCompaction(compaction: WireCompactionState): Buffer {
  return gzipped(compaction);
}

function gzipped(value: unknown): Buffer {
  return gzipSync(Buffer.from(JSON.stringify(value), 'utf8'), { level: 1 });
}

function parsed(data: Buffer, what: string): unknown {
  try {
    return JSON.parse(gunzipSync(data).toString('utf8'));
  } catch (error) {
    throw new SnapshotError(`a stored ${what} does not decode (${String(error)})`);
  }
}

/**
 * The snapshot `encodeSnapshot` stored, with `compaction`, the standing compaction stored beside
 * it (a format-2 snapshot holds its own). Throws SnapshotError.
 */
export function decodeSnapshot(
  data: Buffer,
  compaction?: WireCompactionState,
): ConversationSnapshot {
  const value = parsed(data, 'conversation state');
  const format = (value as { format?: unknown } | null)?.format;
  if (typeof value !== 'object' || value === null || !isReadFormat(format)) {
    throw new SnapshotError(
      `a stored conversation state has another format than ${SNAPSHOT_FORMAT}; it is ignored`,
    );
  }
  const snapshot = value as ConversationSnapshot;
  if (format === INLINE_COMPACTION_FORMAT) return { ...snapshot, format: SNAPSHOT_FORMAT };
  return { ...snapshot, budget: { ...snapshot.budget, compaction } };
}

function isReadFormat(format: unknown): boolean {
  return format === SNAPSHOT_FORMAT || format === INLINE_COMPACTION_FORMAT;
}

/** A standing compaction `encodeCompaction` stored. Throws SnapshotError. */
export function decodeCompaction(data: Buffer): WireCompactionState {
  const value = parsed(data, 'standing compaction');
  const fields = value as Partial<Record<keyof WireCompactionState, unknown>> | null;
  if (
    typeof fields?.start !== 'number' ||
    typeof fields.cut !== 'number' ||
    typeof fields.regionHash !== 'string' ||
    typeof fields.canonicalHash !== 'string' ||
    typeof fields.replacement !== 'string'
  ) {
    throw new SnapshotError('a stored standing compaction lacks its fields; it is ignored');
  }
  return value as WireCompactionState;
}

/** Whether two standing compactions are the same (the replacement mostly the same string). */
export function sameCompaction(
  a: WireCompactionState | undefined,
  b: WireCompactionState | undefined,
): boolean {
  if (a === b) return true;
  if (a === undefined || b === undefined) return false;
  return (
    a.start === b.start &&
    a.cut === b.cut &&
    a.regionHash === b.regionHash &&
    a.canonicalHash === b.canonicalHash &&
    a.replacement === b.replacement
  );
}
