/**
 * High-density's replies at entry in the proxy: a tool result that enters the conversation (one
 * after the request's last assistant turn, not yet in the provider's cache) and repeats a result
 * still visible verbatim in the request goes out as the CLI's short reply naming that earlier call
 * (an unchanged re-read, or the same output of a call that touches no file); one that repeats long
 * runs of lines of such results goes out as the CLI's repeated-lines reply (each run a marker
 * naming the call and the lines, the rest verbatim). Either carries the recall id of its own text.
 * A result is decided the first time the proxy sees it, so every later request writes the same
 * bytes; a reply is only written while what it names is visible verbatim in that very request
 * (not pointed, not compacted away, each call id naming one call), and otherwise goes out as the
 * client's original from then on. A reply is only made when it costs fewer tokens than the result
 * (`shorterInTokens`, the CLI's rule): the recall id it adds can make a reply to a short result
 * longer.
 */
import {
  originalResponseText,
  recallIdOfResponse,
  recallIdOfText,
} from '../../core/compression/recallPointers.js';
import {
  unchangedReadReply,
  unchangedReplyReferent,
} from '../../core/compression/density/entry/unchangedRead.js';
import { shorterInTokens } from '../../core/compression/shorterInTokens.js';
import type { RecallEntry } from '../../recall/RecallArchive.js';
import { MIN_SAVED_CHARS } from '../../core/compression/density/entry/repeatedLinesText.js';
import type { ToolCallBlock, ToolResponseBlock } from '../../services/history/IContent.js';
import type { CompactOutcome } from '../budget/compactWire.js';
import {
  positionOf,
  type EntryReplyDecision,
  type EntryReplyDecisions,
} from './entryReplyDecisions.js';
import type { PointerSite } from '../splice/spliceEdits.js';
import { namedLines, repeatedLinesEntryReply } from './repeatedLinesEntryReply.js';
import {
  callBefore,
  historyBefore,
  indexRequest,
  namesOneCall,
  responseAt,
  visibleReferent,
  type RequestIndex,
} from './requestIndex.js';
import type { ResultSite, WireHistory } from '../wire/wireHistory.js';

/** A reply written into the request, with where the results (or call) it names sit. */
export interface ReplySite extends PointerSite {
  readonly referentMessages: readonly number[];
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
  /** Also decide repeated-lines replies (default off). */
  readonly repeatedLines?: boolean;
}

/** The request as the decisions for its new results read it. */
interface NewResults {
  readonly index: RequestIndex;
  /** The first message whose results are new. */
  readonly from: number;
  readonly repeatedLines: boolean;
}

/** The reply the proxy sends: the CLI's reply, and how to get this result's own text back. */
export function proxyReplyText(cliReply: string, recallId: string): string {
  return `${cliReply} (original: \`dense recall ${recallId}\`)`;
}

/**
 * The repeated-lines reply the proxy sends: the CLI's reply, then on a line of its own how to get
 * this result's own text back.
 */
export function linesReplyText(cliReply: string, recallId: string): string {
  return `${cliReply}\n(original: \`dense recall ${recallId}\`)`;
}

/** The first message after the request's last assistant turn: results from it on are new. */
function newResultsFrom(wire: WireHistory): number {
  for (let i = wire.history.length - 1; i >= 0; i--)
    if (wire.history[i]?.speaker === 'ai') return i + 1;
  return 0;
}

/**
 * The call the new result at `site` answers, when its id names one call and one result (a reused
 * id: which output is this?).
 */
function ownCall(index: RequestIndex, site: ResultSite): ToolCallBlock | undefined {
  const call = callBefore(index.wire, site);
  if (call === undefined || !namesOneCall(index, site.callId)) return undefined;
  if (index.calls.get(site.callId)?.[0] !== call) return undefined;
  return index.sitesByCall.get(site.callId)?.length === 1 ? call : undefined;
}

/** The CLI's unchanged (or same-output) reply, when the result it names is visible verbatim. */
function unchangedReply(
  index: RequestIndex,
  input: { readonly site: ResultSite; readonly call: ToolCallBlock; readonly text: string },
  response: ToolResponseBlock,
): EntryReplyDecision['reply'] {
  const { site, call, text } = input;
  const reply = unchangedReadReply(historyBefore(index, site), call, response, {
    workspaceRoot: '/',
  });
  const cliText = typeof reply?.result === 'string' ? reply.result : '';
  const referent = unchangedReplyReferent(cliText);
  if (referent?.kind !== 'call' || !visibleReferent(index, referent.callId, text, site))
    return undefined;
  return { referent: referent.callId, text: proxyReplyText(cliText, recallIdOfResponse(response)) };
}

/** The CLI's repeated-lines reply, when what its markers name is visible as sent. */
function linesReply(
  index: RequestIndex,
  input: { readonly site: ResultSite; readonly call: ToolCallBlock },
  response: ToolResponseBlock,
): EntryReplyDecision['reply'] {
  const lines = repeatedLinesEntryReply(index, { ...input, response });
  if (lines === undefined) return undefined;
  const text = linesReplyText(lines.cliText, recallIdOfResponse(response));
  // The splice caches written values by referent: one that tells this text from any other.
  const referent = `lines ${recallIdOfText('repeated-lines reply', text)}`;
  return { referent, text, lines: lines.cliText };
}

/** The reply for a new result, or undefined when none is safe and shorter in tokens. */
function decideReply(
  request: NewResults,
  site: ResultSite,
  response: ToolResponseBlock,
): EntryReplyDecision['reply'] {
  const { index } = request;
  const text = originalResponseText(response);
  // The common case, a short result with no earlier copy, found without the CLI's walks.
  const copied = hasEarlierCopy(index.wire, site, text);
  if (!copied && (!request.repeatedLines || text.length < MIN_SAVED_CHARS)) return undefined;
  const call = ownCall(index, site);
  if (call === undefined) return undefined;
  const same = copied ? unchangedReply(index, { site, call, text }, response) : undefined;
  if (same !== undefined && shorterInTokens(same.text, text)) return same;
  if (!request.repeatedLines) return undefined;
  const lines = linesReply(index, { site, call }, response);
  return lines !== undefined && shorterInTokens(lines.text, text) ? lines : undefined;
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

/**
 * Reply sites by result site: the read cache hands a request the previous request's site objects
 * for the messages whose bytes it verified, so a reply that stands is the very same object on every
 * request (the splice and the fingerprints resume past the sites they saw, compared by identity).
 */
const REPLY_SITES = new WeakMap<ResultSite, ReplySite>();

const sameNumbers = (a: readonly number[], b: readonly number[]): boolean =>
  a.length === b.length && a.every((value, i) => value === b[i]);

function replySite(
  site: ResultSite,
  decision: EntryReplyDecision,
  reply: { readonly text: string; readonly referentMessages: readonly number[] },
): ReplySite {
  // The splice caches values by this key: a reply must not share it with a stale-read pointer.
  const recallId = `${decision.recallId}>${decision.reply?.referent ?? ''}`;
  const known = REPLY_SITES.get(site);
  const same =
    known?.recallId === recallId &&
    known.pointer === reply.text &&
    sameNumbers(known.referentMessages, reply.referentMessages);
  if (same) return known;
  const written: ReplySite = {
    ...site,
    recallId,
    pointer: reply.text,
    referentMessages: reply.referentMessages,
    position: positionOf(site),
  };
  REPLY_SITES.set(site, written);
  return written;
}

/** The decision for `site`: the one made when it was first seen, or one made now (a new result). */
function decisionFor(
  input: EntryRepliesInput,
  request: NewResults,
  site: ResultSite,
  response: ToolResponseBlock,
): { readonly decision: EntryReplyDecision; readonly fresh: boolean } | undefined {
  const recallId = recallIdOfResponse(response);
  const known = input.decisions.get(positionOf(site));
  if (known?.recallId === recallId) return { decision: known, fresh: false };
  if (input.readOnly || site.messageIndex < request.from) return undefined;
  const reply = decideReply(request, site, response);
  const decision = reply === undefined ? { recallId } : { recallId, reply };
  input.decisions.set(positionOf(site), decision);
  return { decision, fresh: true };
}

/** The messages holding what `reply` names, when all of it is visible in this request as sent. */
function visibleNamed(
  index: RequestIndex,
  site: ResultSite,
  input: { readonly reply: NonNullable<EntryReplyDecision['reply']>; readonly text: string },
): readonly number[] | undefined {
  const { reply, text } = input;
  if (reply.lines !== undefined) return namedLines(index, { site, cliText: reply.lines, text });
  const referent = visibleReferent(index, reply.referent, text, site);
  return referent === undefined ? undefined : [referent.messageIndex];
}

/**
 * The reply to write at `site` in this request, when what it names is visible (it was decided
 * shorter in tokens when it was made).
 */
function writtenReply(
  index: RequestIndex,
  site: ResultSite,
  input: { readonly decision: EntryReplyDecision; readonly text: string },
): ReplySite | undefined {
  const { decision, text } = input;
  // Pointed as a stale read itself: the pointer stands for it.
  if (decision.reply === undefined || index.replaced.has(positionOf(site))) return undefined;
  const referentMessages = visibleNamed(index, site, { reply: decision.reply, text });
  if (referentMessages === undefined) return undefined;
  return replySite(site, decision, { text: decision.reply.text, referentMessages });
}

/**
 * The replies to write into this request (see the module header). Changes `decisions` unless
 * `readOnly`; never throws on a request the readers produced.
 */
export function entryReplies(input: EntryRepliesInput): EntryReplies {
  const { wire, decisions, readOnly } = input;
  const request: NewResults = {
    index: indexRequest(wire, input.edited),
    from: newResultsFrom(wire),
    repeatedLines: input.repeatedLines === true,
  };
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
      // What it names is gone: the original from now on.
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
 * `readOnly`. Returns the replies kept and the budget's outcome (with the recalls of every run, and
 * the booking of the run that compacted, if one did: the request made that compaction).
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
  let compacting: Exclude<CompactOutcome, { kind: 'none' }> | undefined;
  for (;;) {
    const outcome = input.budget(kept.sites);
    if (outcome.kind === 'none') return { replies: kept, compacted: outcome };
    recalls.push(...outcome.recalls);
    if (outcome.kind === 'compacted') compacting ??= outcome;
    const start = input.compactionStart() ?? 0;
    const end = start + outcome.cut;
    const cutAway = (site: ReplySite) =>
      site.messageIndex >= end && site.referentMessages.some((m) => m >= start && m < end);
    const gone = kept.sites.filter(cutAway);
    if (gone.length === 0) {
      const { kind, booking } = compacting ?? outcome;
      return { replies: kept, compacted: { ...outcome, kind, recalls, booking } };
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
  /**
   * `readOnly`: decide nothing (token counting); `entryReplies: false`: only the budget runs;
   * `repeatedLinesReplies: false`: no repeated-lines replies.
   */
  readonly options: {
    readonly readOnly?: boolean;
    readonly entryReplies?: boolean;
    readonly repeatedLinesReplies?: boolean;
  };
  readonly budget: (replies: readonly ReplySite[]) => CompactOutcome;
}): { readonly replies: EntryReplies; readonly compacted: CompactOutcome } {
  const { wire, pointers, state } = input;
  const readOnly = input.options.readOnly === true;
  const decisions = state.entryReplies;
  const replies =
    input.options.entryReplies === false
      ? { sites: [], recalls: [] }
      : entryReplies({
          wire,
          decisions,
          edited: pointers,
          readOnly,
          repeatedLines: input.options.repeatedLinesReplies !== false,
        });
  return settleReplies(replies, {
    budget: input.budget,
    compactionStart: () => state.budget.compaction?.start,
    decisions,
    readOnly,
  });
}
