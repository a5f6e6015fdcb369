/**
 * The proxy's density decisions (`planProxyEdits`), kept per read request and reused for a later
 * request that only appends to a history already decided. The proxy runs READ→WRITE alone (dedup
 * and recency off; the inclusion pass only marks inclusions a later write made stale), so a result
 * becomes stale only through a successful write after it. Messages appended after a decided
 * prefix that hold no writing call, answer no write still pending and no call already answered,
 * and carry no density reply (a neutral suffix) cannot change what is stale: no write is added or
 * completed, no earlier call gets another answer, and every read in the suffix has all writes
 * before it. Such a request takes the prefix's decisions as they are; any other runs `optimize()`
 * on the whole history. Either way the result equals `planProxyEdits` on the request.
 */
import { fileEffectOf } from '../../core/compression/density/callFileEffect.js';
import { isDensityReply } from '../../core/compression/density/entry/densityReply.js';
import { INCLUDED_REPLY } from '../../core/compression/density/entry/unchangedRead.js';
import type { DensityConfig } from '../../core/compression/types.js';
import type {
  IContent,
  ToolCallBlock,
  ToolResponseBlock,
} from '../../services/history/IContent.js';
import {
  PROXY_DENSITY_CONFIG,
  prunedPositions,
  prunedSites,
  type PrunedPositions,
} from './planProxyEdits.js';
import { CHECKPOINTS, type ReadKey } from '../wire/keptRead.js';
import type { ResultSite, WireHistory } from '../wire/wireHistory.js';

/** A call not answered yet, as the position pairing tracks it (`toolCallPairing.ts`). */
interface PendingCall {
  readonly id: string;
  readonly entry: number;
  /** It changes files when it succeeds. */
  readonly writes: boolean;
}

/**
 * What a decided history of `tailStart + tail.length` entries leaves for requests that extend it
 * or take back its last messages: its decisions, and for each message index `j` from `tailStart`
 * to its end, the calls pending after the first `j` messages and whether those first `j` messages
 * have the same decisions (the messages after them are neutral).
 */
export interface PlanMemo {
  readonly pruned: PrunedPositions;
  readonly tailStart: number;
  /** Its entries from `tailStart` on: compared by value when a request reads them again. */
  readonly tail: readonly IContent[];
  /** Index `j - tailStart`: the calls pending after the first `j` messages, in history order. */
  readonly pending: readonly (readonly PendingCall[])[];
  /** Index `j - tailStart`: whether the first `j` messages have the decisions `pruned`. */
  readonly decided: readonly boolean[];
  /** The request's result sites, and those of them at `pruned` positions (`prunedSites`). */
  readonly wireSites: readonly ResultSite[];
  readonly sites: readonly ResultSite[];
}

export interface ReusePlanInput {
  readonly wire: WireHistory;
  /** The memo kept with the read this request resumed from. */
  readonly previous: PlanMemo | undefined;
  /** Leading messages of this request that are that read's own entries, unchanged. */
  readonly verified: number;
  readonly config?: DensityConfig;
}

export interface ReusePlan {
  /** Exactly `planProxyEdits(wire, config)`. */
  readonly sites: ResultSite[];
  /** To keep with this request's read; absent when too many calls are pending to track. */
  readonly memo: PlanMemo | undefined;
  /** Whether the previous decisions were taken as they are (no `optimize()` run). */
  readonly reused: boolean;
}

/** Pending calls tracked at most (a client always answers its calls; this is a bound). */
const MAX_PENDING = 64;

interface EffectOptions {
  readonly shellFileOps: boolean;
}

/** `planProxyEdits` on the request, reusing `previous` where that provably gives the same. */
export function planProxyEditsReusing(input: ReusePlanInput): ReusePlan {
  const { wire, previous } = input;
  const config = input.config ?? PROXY_DENSITY_CONFIG;
  const history = wire.history;
  if (config.fileDedupe || config.recencyPruning) {
    const sites = prunedSites(wire.sites, prunedPositions(history, config));
    return { sites, memo: undefined, reused: false };
  }
  const options = { shellFileOps: config.shellFileOps === true };
  const known = previous === undefined ? undefined : knownPrefix(history, previous, input.verified);
  const reusedFrom = known === undefined ? undefined : neutralBase(history, known, options);
  const pruned = reusedFrom?.pruned ?? prunedPositions(history, config);
  const sites =
    previous === undefined
      ? prunedSites(wire.sites, pruned)
      : sitesReusing(wire.sites, pruned, { memo: previous, verified: input.verified });
  const memo = nextMemo(history, pruned, known, options);
  return {
    sites,
    memo: memo === undefined ? undefined : { ...memo, wireSites: wire.sites, sites },
    reused: reusedFrom !== undefined,
  };
}

/** Whether the first `count` items of `a` and `b` are the same objects. */
function samePrefix<T>(a: readonly T[], b: readonly T[], count: number): boolean {
  for (let index = 0; index < count; index++) if (a[index] !== b[index]) return false;
  return true;
}

/** Index of the first of `sites` (in request order) in message `message` or later. */
function firstFrom(sites: readonly ResultSite[], message: number): number {
  let low = 0;
  let high = sites.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((sites[middle] as ResultSite).messageIndex < message) low = middle + 1;
    else high = middle;
  }
  return low;
}

/**
 * `prunedSites(sites, pruned)`, taking the previous request's answer for the messages before
 * `verified` when it was decided as `pruned` too (the same decisions object) and those messages'
 * sites are its very objects (the read cache hands them over): only the new sites are filtered.
 */
function sitesReusing(
  sites: readonly ResultSite[],
  pruned: PrunedPositions,
  previous: { readonly memo: PlanMemo; readonly verified: number },
): ResultSite[] {
  const { memo, verified } = previous;
  const cut = firstFrom(sites, verified);
  const same =
    memo.pruned === pruned &&
    cut <= memo.wireSites.length &&
    (memo.wireSites[cut]?.messageIndex ?? Infinity) >= verified &&
    samePrefix(sites, memo.wireSites, cut);
  if (!same) return prunedSites(sites, pruned);
  const kept = memo.sites.slice(0, firstFrom(memo.sites, verified));
  return kept.concat(prunedSites(sites.slice(cut), pruned));
}

/** The part of `memo` that holds for `history`: its entries up to `end` are the memo's. */
interface KnownPrefix {
  readonly memo: PlanMemo;
  /** Entries before it are the memo's, by value; at least `memo.tailStart`. */
  readonly end: number;
}

function knownPrefix(
  history: readonly IContent[],
  memo: PlanMemo,
  verified: number,
): KnownPrefix | undefined {
  if (verified < memo.tailStart) return undefined;
  const limit = Math.min(memo.tailStart + memo.tail.length, history.length);
  let end = Math.min(verified, limit);
  while (end < limit && sameValue(history[end], memo.tail[end - memo.tailStart])) end++;
  return { memo, end };
}

/** The memo's decisions when some prefix they hold for is followed by neutral messages only. */
function neutralBase(
  history: readonly IContent[],
  known: KnownPrefix,
  options: EffectOptions,
): { readonly pruned: PrunedPositions } | undefined {
  const { memo } = known;
  // The latest decided prefix is the one to try: were the messages after an earlier one neutral,
  // so would be the messages after this one.
  for (let base = known.end; base >= memo.tailStart; base--) {
    const at = base - memo.tailStart;
    if (memo.decided[at] !== true) continue;
    const pending = memo.pending[at] ?? [];
    return advance(pending, history, base, history.length, options).neutral
      ? { pruned: memo.pruned }
      : undefined;
  }
  return undefined;
}

/**
 * The memo for `history`, decided as `pruned`: the pending calls after its last few messages
 * (from the known prefix when it reaches that far back, else from the start) and which of those
 * prefixes share its decisions.
 */
function nextMemo(
  history: readonly IContent[],
  pruned: PrunedPositions,
  known: KnownPrefix | undefined,
  options: EffectOptions,
): Omit<PlanMemo, 'wireSites' | 'sites'> | undefined {
  const length = history.length;
  // A request that took back messages keeps the known prefix's start: the pending calls before
  // it are known, the ones before an earlier start would take a scan from the first message.
  // The read cache resumes at one of a request's last `CHECKPOINTS` messages: the base goes there.
  const tailStart = Math.max(0, length - CHECKPOINTS, known?.memo.tailStart ?? 0);
  const from =
    known !== undefined && known.memo.tailStart <= tailStart ? Math.min(known.end, tailStart) : 0;
  const start =
    from === 0 || known === undefined
      ? []
      : (known.memo.pending[from - known.memo.tailStart] ?? []);
  const pending = [advance(start, history, from, tailStart, options).pending];
  for (let j = tailStart; j < length; j++) {
    pending.push(advance(pending.at(-1) ?? [], history, j, j + 1, options).pending);
  }
  if ((pending.at(-1)?.length ?? 0) > MAX_PENDING) return undefined;
  const decided = pending.map(
    (before, at) => advance(before, history, tailStart + at, length, options).neutral,
  );
  return { pruned, tailStart, tail: history.slice(tailStart), pending, decided };
}

/**
 * The calls pending after entries `from` to `to` of `history`, given those pending before, and
 * whether those entries are neutral (see the module comment).
 */
function advance(
  pending: readonly PendingCall[],
  history: readonly IContent[],
  from: number,
  to: number,
  options: EffectOptions,
): { readonly pending: readonly PendingCall[]; readonly neutral: boolean } {
  let list: PendingCall[] | undefined;
  let neutral = true;
  for (let entry = from; entry < to; entry++) {
    for (const block of history[entry]?.blocks ?? []) {
      if (block.type === 'tool_call') {
        const writes = writesFiles(block, options);
        if (writes) neutral = false;
        (list ??= [...pending]).push({ id: block.id, entry, writes });
      } else if (block.type === 'tool_response') {
        const index = answeredCall(list ?? pending, block.callId);
        if (!isNeutralAnswer(block, (list ?? pending)[index])) neutral = false;
        if (index >= 0) (list ??= [...pending]).splice(index, 1);
      }
    }
  }
  return { pending: list ?? pending, neutral };
}

/** The call changes files when it succeeds (as READ→WRITE classifies it). */
function writesFiles(block: ToolCallBlock, options: EffectOptions): boolean {
  return (fileEffectOf(block, options)?.writes.length ?? 0) > 0;
}

/**
 * A response that answers a pending call that writes nothing, and is not a density reply. With no
 * pending call it is a repeated answer joining an answered call, or an orphan: not tracked.
 */
function isNeutralAnswer(block: ToolResponseBlock, answered: PendingCall | undefined): boolean {
  return (
    answered !== undefined &&
    !answered.writes &&
    !isDensityReply(block) &&
    block.result !== INCLUDED_REPLY
  );
}

/**
 * Index of the call a response with `id` answers: in the newest entry with a pending call of that
 * id, the first such call (the pairing rule); -1 when none is pending.
 */
function answeredCall(pending: readonly PendingCall[], id: string): number {
  let found = -1;
  for (let index = pending.length - 1; index >= 0; index--) {
    const call = pending[index] as PendingCall;
    if (call.id !== id) continue;
    if (found >= 0 && call.entry !== (pending[found] as PendingCall).entry) break;
    found = index;
  }
  return found;
}

/** Deep equality of JSON-like values (the decision history's entries). */
function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  return keys.every((key) => Object.hasOwn(right, key) && sameValue(left[key], right[key]));
}

/** The memos of the reads the read cache keeps (they go with their read). */
export class ProxyPlans {
  private readonly memos = new WeakMap<ReadKey, PlanMemo>();
  /** Requests planned with the previous decisions reused, and with `optimize()` run. */
  readonly counts = { reused: 0, optimized: 0 };

  /** `planProxyEdits(wire)`, reusing what the read it resumed from decided where that is exact. */
  plan(
    wire: WireHistory,
    read: {
      readonly key?: ReadKey;
      readonly resumedFrom?: { readonly key: ReadKey; readonly messages: number };
    },
  ): ResultSite[] {
    const from = read.resumedFrom;
    const plan = planProxyEditsReusing({
      wire,
      previous: from === undefined ? undefined : this.memos.get(from.key),
      verified: from?.messages ?? 0,
    });
    if (plan.reused) this.counts.reused++;
    else this.counts.optimized++;
    if (read.key !== undefined && plan.memo !== undefined) this.memos.set(read.key, plan.memo);
    return plan.sites;
  }
}
