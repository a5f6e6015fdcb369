/**
 * High-density's replies at entry in the proxy: a tool result that enters the conversation (one
 * after the request's last assistant turn, not yet in the provider's cache) and repeats a result
 * still visible verbatim in the request goes out as the CLI's short reply naming that earlier call
 * (an unchanged re-read, or the same output of a call that touches no file), with the recall id of
 * its own text. A result is decided the first time the proxy sees it, so every later request
 * writes the same bytes; a reply is only written while the result it names is visible verbatim in
 * that very request (not pointed, not compacted away, its call id naming one call), and otherwise
 * goes out as the client's original from then on.
 */
import { originalResponseText, recallIdOfResponse } from '../core/compression/recallPointers.js';
import {
  unchangedReadReply,
  unchangedReplyReferent,
} from '../core/compression/density/entry/unchangedRead.js';
import type { RecallEntry } from '../recall/RecallArchive.js';
import type {
  ContentBlock,
  IContent,
  ToolCallBlock,
  ToolResponseBlock,
} from '../services/history/IContent.js';
import type { CompactOutcome } from './budget/compactWire.js';
import {
  positionOf,
  type EntryReplyDecision,
  type EntryReplyDecisions,
} from './entryReplyDecisions.js';
import type { PointerSite } from './proxyPointer.js';
import { pointerValue } from './spliceEdits.js';
import type { ResultSite, WireHistory } from './wireHistory.js';

/** A reply written into the request, with where the result it names sits. */
export interface ReplySite extends PointerSite {
  readonly referentMessage: number;
  readonly position: string;
}

export interface EntryReplies {
  readonly sites: readonly ReplySite[];
  /** Originals of the results replied to for the first time (kept for recall). */
  readonly recalls: readonly RecallEntry[];
}

export interface EntryRepliesInput {
  readonly wire: WireHistory;
  readonly decisions: EntryReplyDecisions;
  /** Results already replaced in this request (the stale-read pointers). */
  readonly edited: readonly ResultSite[];
  /** Decide nothing new and change no decision (token counting). */
  readonly readOnly: boolean;
}

/** The reply the proxy sends: the CLI's reply, and how to get this result's own text back. */
export function proxyReplyText(cliReply: string, recallId: string): string {
  return `${cliReply} (original: \`dense recall ${recallId}\`)`;
}

function responseAt(wire: WireHistory, site: ResultSite): ToolResponseBlock | undefined {
  const block = wire.history[site.messageIndex]?.blocks[site.blockIndex];
  return block?.type === 'tool_response' ? block : undefined;
}

/** The request's calls and results by call id, and which results are replaced so far. */
interface RequestIndex {
  readonly wire: WireHistory;
  readonly sitesByCall: Map<string, ResultSite[]>;
  readonly calls: Map<string, ToolCallBlock[]>;
  /** Call ids of client calls read as several calls (a patch of several files, an exec script). */
  readonly split: Set<string>;
  readonly replaced: Set<string>;
}

function callTables(wire: WireHistory): Omit<RequestIndex, 'wire' | 'replaced'> {
  const sitesByCall = new Map<string, ResultSite[]>();
  const push = <T>(map: Map<string, T[]>, key: string, value: T) => {
    const list = map.get(key);
    if (list === undefined) map.set(key, [value]);
    else list.push(value);
  };
  for (const site of wire.sites) push(sitesByCall, site.callId, site);
  const calls = new Map<string, ToolCallBlock[]>();
  const split = new Set<string>();
  for (const entry of wire.history)
    for (const block of entry.blocks) {
      if (block.type !== 'tool_call') continue;
      push(calls, block.id, block);
      const hash = block.id.indexOf('#');
      if (hash >= 0) split.add(block.id.slice(0, hash));
    }
  return { sitesByCall, calls, split };
}

/** The index of `wire`; its call tables are built when first asked for (most requests never do). */
function indexRequest(wire: WireHistory, edited: readonly ResultSite[]): RequestIndex {
  let tables: ReturnType<typeof callTables> | undefined;
  const built = () => (tables ??= callTables(wire));
  return {
    wire,
    replaced: new Set(edited.map(positionOf)),
    get sitesByCall() {
      return built().sitesByCall;
    },
    get calls() {
      return built().calls;
    },
    get split() {
      return built().split;
    },
  };
}

/**
 * The site of the result of call `callId` when it is visible verbatim with `text` before `site`:
 * the id names one client call read as one call, and one result not replaced in this request.
 */
function visibleReferent(
  index: RequestIndex,
  callId: string,
  text: string,
  before: ResultSite,
): ResultSite | undefined {
  const sites = index.sitesByCall.get(callId);
  if (sites?.length !== 1 || index.calls.get(callId)?.length !== 1 || index.split.has(callId))
    return undefined;
  const site = sites[0] as ResultSite;
  const earlier =
    site.messageIndex < before.messageIndex ||
    (site.messageIndex === before.messageIndex && site.blockIndex < before.blockIndex);
  if (!earlier || index.replaced.has(positionOf(site))) return undefined;
  const block = responseAt(index.wire, site);
  if (block === undefined || block.error !== undefined || block.result !== text) return undefined;
  return site;
}

/** The first message after the request's last assistant turn: results from it on are new. */
function newResultsFrom(wire: WireHistory): number {
  for (let i = wire.history.length - 1; i >= 0; i--)
    if (wire.history[i]?.speaker === 'ai') return i + 1;
  return 0;
}

/** A response as the decision sees a replaced one: no longer the text it had. */
const replacedBlock = (block: ContentBlock): ContentBlock =>
  block.type === 'tool_response' ? { ...block, result: '', error: 'replaced' } : block;

/** The history before `site` as sent: results replaced in this request show no text. */
function historyBefore(index: RequestIndex, site: ResultSite): IContent[] {
  const replacedIn = new Map<number, Set<number>>();
  for (const position of index.replaced) {
    const [message, block] = position.split(':').map(Number) as [number, number];
    replacedIn.set(message, (replacedIn.get(message) ?? new Set()).add(block));
  }
  const view = (entry: IContent, message: number, upTo: number): IContent => {
    const replaced = replacedIn.get(message);
    if (replaced === undefined && upTo === entry.blocks.length) return entry;
    const blocks = entry.blocks.slice(0, upTo);
    return replaced === undefined
      ? { ...entry, blocks }
      : { ...entry, blocks: blocks.map((b, i) => (replaced.has(i) ? replacedBlock(b) : b)) };
  };
  const history = index.wire.history;
  // Only the entries holding a replaced result, and the current one, are copied.
  const before = history.slice(0, site.messageIndex);
  for (const message of replacedIn.keys()) {
    const entry = before[message];
    if (entry !== undefined) before[message] = view(entry, message, entry.blocks.length);
  }
  const current = history[site.messageIndex];
  if (current !== undefined) before.push(view(current, site.messageIndex, site.blockIndex));
  return before;
}

/** The reply for a new result, or undefined when none is safe and shorter. */
function decideReply(index: RequestIndex, site: ResultSite, response: ToolResponseBlock) {
  const text = originalResponseText(response);
  // The common case, no earlier copy of this text at all, found without the CLI's walk.
  if (!hasEarlierCopy(index.wire, site, text)) return undefined;
  const call = callBefore(index.wire, site);
  if (call === undefined) return undefined;
  const reply = unchangedReadReply(historyBefore(index, site), call, response, {
    workspaceRoot: '/',
  });
  const cliText = typeof reply?.result === 'string' ? reply.result : '';
  const referent = unchangedReplyReferent(cliText);
  if (referent?.kind !== 'call') return undefined;
  // Its own call id names one call and one result too (a reused id: which output is this?).
  const calls = index.calls.get(site.callId);
  if (calls?.length !== 1 || calls[0] !== call || index.split.has(site.callId)) return undefined;
  if (index.sitesByCall.get(site.callId)?.length !== 1) return undefined;
  if (visibleReferent(index, referent.callId, text, site) === undefined) return undefined;
  return { referent: referent.callId, text: proxyReplyText(cliText, recallIdOfResponse(response)) };
}

/** Whether a result before `site` holds exactly `text`. */
function hasEarlierCopy(wire: WireHistory, site: ResultSite, text: string): boolean {
  for (const earlier of wire.sites) {
    if (earlier.messageIndex > site.messageIndex) break;
    if (earlier === site) break;
    if (responseAt(wire, earlier)?.result === text) return true;
  }
  return false;
}

/** The newest call answered by the result at `site` (its uniqueness is checked after). */
function callBefore(wire: WireHistory, site: ResultSite): ToolCallBlock | undefined {
  for (let m = site.messageIndex; m >= 0; m--) {
    const blocks = wire.history[m]?.blocks ?? [];
    for (let b = blocks.length - 1; b >= 0; b--) {
      const block = blocks[b];
      if (block?.type === 'tool_call' && block.id === site.callId) return block;
    }
  }
  return undefined;
}

function replySite(
  site: ResultSite,
  decision: EntryReplyDecision,
  reply: { readonly text: string; readonly referent: string; readonly referentMessage: number },
): ReplySite {
  return {
    ...site,
    // The splice caches values by this key: a reply must not share it with a stale-read pointer.
    recallId: `${decision.recallId}>${reply.referent}`,
    pointer: reply.text,
    referentMessage: reply.referentMessage,
    position: positionOf(site),
  };
}

/** The decision for `site`: the one made when it was first seen, or one made now (a new result). */
function decisionFor(
  input: EntryRepliesInput,
  request: { readonly index: RequestIndex; readonly from: number },
  site: ResultSite,
  response: ToolResponseBlock,
): { readonly decision: EntryReplyDecision; readonly fresh: boolean } | undefined {
  const recallId = recallIdOfResponse(response);
  const known = input.decisions.get(positionOf(site));
  if (known?.recallId === recallId) return { decision: known, fresh: false };
  if (input.readOnly || site.messageIndex < request.from) return undefined;
  const reply = decideReply(request.index, site, response);
  const decision = reply === undefined ? { recallId } : { recallId, reply };
  input.decisions.set(positionOf(site), decision);
  return { decision, fresh: true };
}

/** The reply to write at `site` in this request, when what it names is visible and it is shorter. */
function writtenReply(
  index: RequestIndex,
  site: ResultSite,
  input: { readonly decision: EntryReplyDecision; readonly text: string },
): ReplySite | undefined {
  const { decision, text } = input;
  // Pointed as a stale read itself: the pointer stands for it.
  if (decision.reply === undefined || index.replaced.has(positionOf(site))) return undefined;
  const referent = visibleReferent(index, decision.reply.referent, text, site);
  if (referent === undefined) return undefined;
  const written = replySite(site, decision, {
    ...decision.reply,
    referentMessage: referent.messageIndex,
  });
  return pointerValue(written).length < site.end - site.start ? written : undefined;
}

/**
 * The replies to write into this request (see the module header). Changes `decisions` unless
 * `readOnly`; never throws on a request the readers produced.
 */
export function entryReplies(input: EntryRepliesInput): EntryReplies {
  const { wire, decisions, readOnly } = input;
  const request = { index: indexRequest(wire, input.edited), from: newResultsFrom(wire) };
  const sites: ReplySite[] = [];
  const recalls: RecallEntry[] = [];
  const { walk, gone } = decisions.sitesToWalk(wire.sites, request.from);
  if (!readOnly) for (const position of gone) decisions.delete(position);
  for (const site of walk) {
    const response = responseAt(wire, site);
    const decided = response && decisionFor(input, request, site, response);
    if (response === undefined || decided?.decision.reply === undefined) continue;
    const text = originalResponseText(response);
    const written = writtenReply(request.index, site, { decision: decided.decision, text });
    if (written === undefined) {
      // What it names is gone (or the reply would not be shorter): the original from now on.
      if (!readOnly) decisions.set(positionOf(site), { recallId: decided.decision.recallId });
      continue;
    }
    sites.push(written);
    request.index.replaced.add(written.position);
    if (decided.fresh) recalls.push({ id: decided.decision.recallId, text });
  }
  if (!readOnly) decisions.prune(wire.sites);
  return { sites, recalls };
}

/**
 * Runs the working budget (`budget`, given the replies to write) until no reply it keeps names a
 * result its compaction took out; those replies go out as the originals, and stay so unless
 * `readOnly`. Returns the replies kept and the budget's outcome (with the recalls of every run).
 */
export function settleReplies(
  replies: EntryReplies,
  input: {
    readonly budget: (sites: readonly ReplySite[]) => CompactOutcome;
    /** The first item the standing compaction stands for, after a run. */
    readonly compactionStart: () => number | undefined;
    readonly decisions: EntryReplyDecisions;
    readonly readOnly: boolean;
  },
): { readonly replies: EntryReplies; readonly compacted: CompactOutcome } {
  let kept = replies;
  const recalls: RecallEntry[] = [];
  let compactedOnce = false;
  for (;;) {
    const outcome = input.budget(kept.sites);
    if (outcome.kind === 'none') return { replies: kept, compacted: outcome };
    recalls.push(...outcome.recalls);
    compactedOnce ||= outcome.kind === 'compacted';
    const start = input.compactionStart() ?? 0;
    const end = start + outcome.cut;
    const cutAway = (site: ReplySite) =>
      site.referentMessage >= start && site.referentMessage < end && site.messageIndex >= end;
    const gone = kept.sites.filter(cutAway);
    if (gone.length === 0) {
      const kind = compactedOnce ? 'compacted' : outcome.kind;
      return { replies: kept, compacted: { ...outcome, kind, recalls } };
    }
    if (!input.readOnly)
      for (const site of gone) {
        const decision = input.decisions.get(site.position);
        if (decision !== undefined)
          input.decisions.set(site.position, { recallId: decision.recallId });
      }
    const goneIds = new Set(gone.map((site) => site.position));
    kept = {
      sites: kept.sites.filter((site) => !goneIds.has(site.position)),
      recalls: kept.recalls,
    };
  }
}

/**
 * The replies for this request settled against the working budget: what the density step calls
 * once, after the stale-read pointers are chosen. `budget` runs the working budget given the
 * replies to write next to `pointers`.
 */
export function repliesUnderBudget(input: {
  readonly wire: WireHistory;
  readonly pointers: readonly PointerSite[];
  /** The conversation: its decisions and its standing compaction. */
  readonly state: {
    readonly entryReplies: EntryReplyDecisions;
    readonly budget: { readonly compaction?: { readonly start: number } | undefined };
  };
  /** `readOnly`: decide nothing (token counting); `entryReplies: false`: only the budget runs. */
  readonly options: { readonly readOnly?: boolean; readonly entryReplies?: boolean };
  readonly budget: (replies: readonly ReplySite[]) => CompactOutcome;
}): { readonly replies: EntryReplies; readonly compacted: CompactOutcome } {
  const { wire, pointers, state } = input;
  const readOnly = input.options.readOnly === true;
  const decisions = state.entryReplies;
  const replies =
    input.options.entryReplies === false
      ? { sites: [], recalls: [] }
      : entryReplies({ wire, decisions, edited: pointers, readOnly });
  return settleReplies(replies, {
    budget: input.budget,
    compactionStart: () => state.budget.compaction?.start,
    decisions,
    readOnly,
  });
}
