/**
 * Room `budget/`: the working budget and compaction; imports splice/, wire/ and images/ only.
 *
 * Applies the working budget to one request (Anthropic Messages, OpenAI Chat Completions or
 * Responses): repeats the conversation's sticky compaction (the same replacement bytes while the
 * compacted items are unchanged: known from the request's verified prefix, else by their hashes,
 * `regionHash.ts`),
 * re-checks the budget on the items after it, and when the request would exceed it
 * replaces the oldest turns after the layout's start by one user message holding Dense's
 * deterministic summary. A new compaction returns the originals its summary
 * names (the caller keeps them for recall before the request goes out). Pure apart from the
 * conversation state it is given; may throw on a body it cannot parse (the caller fails open).
 */
import type { WireHistory } from '../wire/wireHistory.js';
import { sentSpans, type EditSource, type Span } from './sentSpans.js';
import type { CompactionLayout } from './compactionLayout.js';
import { compactionSummary } from './compactionSummary.js';
import {
  earlyBudgetOf,
  planCompaction as planWireCompaction,
  repliesPast,
  type CompactionPlan,
} from '../../core/compression/workingBudget/planCompaction.js';
import {
  compactionBooking,
  withinRisk,
  type EarlyCompactionRisk,
} from '../../core/compression/workingBudget/earlyCompactionRisk.js';
import type { RecallEntry } from '../../recall/RecallArchive.js';
import { regionPieces } from '../../recall/regionPieces.js';
import { turnImageCharDeltas, withImageDeltas } from '../images/imageTurnChars.js';
import { defaultWorkingBudget } from './workingBudget.js';
import type { AgentClient } from './agentClient.js';
import type { TextSlices } from '../wire/segmentedText.js';
import {
  canonicalRegionHash,
  chainedRegionHash,
  regionStart,
  type RegionMark,
  type VerifiedRegion,
} from './regionHash.js';

/** A conversation's standing compaction. */
export interface WireCompactionState {
  /** The first item the replacement stands for (items before it go out unchanged). */
  readonly start: number;
  /** The item after the last one the replacement stands for. */
  readonly cut: number;
  /** Hash of the replaced messages' raw text, chained message by message (`regionHash.ts`; the fast check). */
  readonly regionHash: string;
  /**
   * Hash of the replaced items' hashes with cache breakpoints left out (the check when the raw
   * text differs: a breakpoint moved). One hash, not one per item: the state stays small.
   */
  readonly canonicalHash: string;
  /** The replacement message, as sent. */
  readonly replacement: string;
}

export interface BudgetState {
  compaction: WireCompactionState | undefined;
  /** Reported prompt tokens per sent character on the previous reply (calibrates the estimate). */
  promptTokensPerChar: number | undefined;
  /**
   * What the conversation's compactions have saved so far less what its early ones cost up front
   * (base-input-token units): added to the risk budget an early compaction may spend.
   */
  compactionNet?: number;
  /**
   * Replies that told the client its history is full since its last compaction
   * (`clientHistoryBound.ts`).
   */
  historySignals?: number;
}

export const DEFAULT_TOKENS_PER_CHAR = 0.25;
/** The summary may take this share of the budget (as characters ≈ 4 × tokens). */
const SUMMARY_SHARE = 0.14;
const SUMMARY_MAX_CHARS = 40_000;

/** Characters a compaction summary may take under a working budget of `budgetTokens`. */
export function summaryBudgetChars(budgetTokens: number): number {
  return Math.min(SUMMARY_MAX_CHARS, Math.floor(budgetTokens * 4 * SUMMARY_SHARE));
}

export interface CompactInput {
  /** The original request (for the hashes and the summary): read in slices, never joined. */
  readonly original: TextSlices;
  readonly wire: WireHistory;
  /** Where a compaction may cut, and the summary's wire form (read only when needed). */
  readonly layout: () => CompactionLayout;
  /**
   * The sent text of `original[from, to)` (density's edits inside it written in; they lie inside
   * messages), as parts that joined are it: built only for the parts of a compacted request that
   * go out, and sent as they are.
   */
  readonly sent: (from: number, to: number) => readonly string[];
  /**
   * What the request's read knows (`CompactionReads`): leading messages byte for byte those of a
   * request the standing compaction was confirmed on (when they reach its cut, it is repeated
   * without reading the messages it replaces), and a region hash known up to some cut (only the
   * messages past it are hashed). Absent: nothing known.
   */
  readonly verified?: VerifiedRegion;
  /** Density's replacements in `original`: where `sent` differs from it. */
  readonly edits: EditSource;
  /** The request's `model`. */
  readonly model: string | undefined;
  readonly state: BudgetState;
  /** The working budget (tokens); undefined: the default for the request's model. */
  readonly budgetTokens: number | undefined;
  /** Whether the request opts into a 1M-token window. */
  readonly longContext: boolean;
  /**
   * What an early compaction may cost up front: one the request as sent does not need yet (it fits
   * the budget), made because the history as the client sent it passed the early budget.
   * Absent: no limit.
   */
  readonly earlyRisk?: EarlyCompactionRisk;
  /** The agent CLI that sent the request, when known (else guessed from the model name). */
  readonly client?: AgentClient | undefined;
  /** Only repeat the standing compaction (token counting). */
  readonly readOnly: boolean;
}

/** The input with its layout read. */
type LaidOut = Omit<CompactInput, 'layout'> & { readonly layout: CompactionLayout };

export type CompactOutcome =
  | { readonly kind: 'none' }
  | {
      readonly kind: 'kept' | 'compacted';
      /** The request as sent, as parts (forwarded as they are, never joined). */
      readonly parts: readonly string[];
      /** Characters of `parts`. */
      readonly chars: number;
      /** Items the summary replaces. */
      readonly cut: number;
      readonly removedChars: number;
      /** The originals a new summary names (empty when the standing one is repeated). */
      readonly recalls: readonly RecallEntry[];
      /**
       * What the request adds to the conversation's compaction account (`compactionBooking`; 0
       * when read-only): the caller books it, once per request.
       */
      readonly booking: number;
    };

/** The raw text of each item in `[from, to)`. */
function rawsOf(input: LaidOut, from: number, to: number): string[] {
  return input.wire.messageSpans
    .slice(from, to)
    .map((span) => input.original.slice(span.start, span.end));
}

/** The region `[start, cut)`'s chained hash, read from `known`'s cut on when it lies inside. */
function regionHashOf(input: LaidOut, cut: number, known: RegionMark | undefined): string {
  const from = regionStart(known, input.layout.start, cut);
  return chainedRegionHash(from.hash, rawsOf(input, from.at, cut));
}

/**
 * The standing compaction's cut when it still applies to this request's items, else 0; `mark`:
 * its region's hash holds for this request's raw bytes (an extension may hash from there).
 */
function standingCut(input: LaidOut): { readonly cut: number; readonly mark?: RegionMark } {
  const standing = input.state.compaction;
  const spans = input.wire.messageSpans;
  const { start, turns } = input.layout;
  if (standing?.start !== start || standing.cut >= spans.length) return { cut: 0 };
  if (!turns.some((turn) => turn.first === standing.cut && turn.role === 'assistant'))
    return { cut: 0 };
  const mark = { start, cut: standing.cut, hash: standing.regionHash };
  if ((input.verified?.messages ?? 0) >= standing.cut) return { cut: standing.cut, mark };
  if (regionHashOf(input, standing.cut, input.verified?.mark) === standing.regionHash)
    return { cut: standing.cut, mark };
  const canonical = canonicalRegionHash(
    input.wire.messageSpans,
    input.original,
    start,
    standing.cut,
  );
  return { cut: canonical === standing.canonicalHash ? standing.cut : 0 };
}

function buildCompaction(
  input: LaidOut,
  cut: number,
  summary: { readonly chars: number; readonly mark: RegionMark | undefined },
): WireCompactionState & { readonly recalls: readonly RecallEntry[] } {
  const spans = input.wire.messageSpans;
  const { start } = input.layout;
  const removedRaw = input.original.slice(spans[start]?.start ?? 0, spans[cut - 1]?.end ?? 0);
  const made = compactionSummary({
    removed: input.wire.history.slice(start, cut),
    history: input.wire.history,
    removedRaw,
    // The region's messages as pieces: a later, longer region stores only its new messages.
    removedPieces: regionPieces(input.original, spans, start, cut),
    budgetChars: summary.chars,
    purpose: 'working-budget',
  });
  const canonicalHash = canonicalRegionHash(spans, input.original, start, cut);
  const replacement = input.layout.replacement(made.text, { original: input.original, cut });
  const from = regionStart(summary.mark, start, cut);
  const regionHash = chainedRegionHash(from.hash, rawsOf(input, from.at, cut));
  return { start, cut, regionHash, canonicalHash, replacement, recalls: made.recall };
}

/** Characters each turn takes in the sent text (its items and their separators). */
function turnChars(layout: CompactionLayout, items: readonly Span[]): number[] {
  const { turns } = layout;
  return turns.map((turn, index) => {
    const end = turns[index + 1]?.first ?? items.length;
    let chars = 0;
    for (let item = turn.first; item < end; item++) {
      const span = items[item];
      if (span !== undefined) chars += span.end - span.start + 1;
    }
    return chars;
  });
}

/** Characters of the pinned items in each turn (as `turnChars` counts them): carried whole. */
function pinnedChars(layout: CompactionLayout, items: readonly Span[]): number[] {
  const chars = layout.turns.map(() => 0);
  let turn = 0;
  for (const item of layout.pinned) {
    while (turn + 1 < layout.turns.length && (layout.turns[turn + 1]?.first ?? 0) <= item) turn++;
    const span = items[item];
    if (span !== undefined) chars[turn] = (chars[turn] ?? 0) + span.end - span.start + 1;
  }
  return chars;
}

/**
 * Characters of the items from `first` on, as `turnChars` counts them, the larger of as sent and
 * as the client sent them (the plan judges both: `fitsBudget`): read from those items only.
 */
function tailChars(input: LaidOut, first: number): number {
  const spans = input.wire.messageSpans.slice(first);
  const from = spans[0]?.start ?? input.original.length;
  let sent = 0;
  for (const span of sentSpans(spans, input.edits.within(from, input.original.length))) {
    sent += span.end - span.start + 1;
  }
  let client = 0;
  for (const span of spans) client += span.end - span.start + 1;
  return Math.max(sent, client);
}

/** Characters of the sent request outside the layout's turns (all edits lie inside messages). */
function fixedChars(input: LaidOut): number {
  const spans = input.wire.messageSpans;
  const first = spans[input.layout.start]?.start ?? 0;
  let chars = input.original.length - ((spans.at(-1)?.end ?? 0) - first);
  for (const edit of input.edits.within(0, first)) chars += edit.length - (edit.end - edit.start);
  return chars;
}

/**
 * The plan for this request as an item cut (0: none): repeat the standing cut only (token
 * counting), keep it while the items after it fit (`planWireCompaction`'s own estimate, read
 * from those items only), or decide over the layout's turns.
 */
function planFor(
  input: LaidOut,
  request: { standingItem: number; perChar: number },
): { plan: CompactionPlan; summaryChars: number } {
  const { standingItem } = request;
  const { turns } = input.layout;
  const budgetTokens =
    input.budgetTokens ??
    defaultWorkingBudget({
      model: input.model,
      longContext: input.longContext,
      client: input.client,
    });
  const summaryChars = summaryBudgetChars(budgetTokens);
  if (input.readOnly || turns.length === 0) {
    return { plan: { kind: 'keep', cut: standingItem, reason: 'under-budget' }, summaryChars };
  }
  const fixed = fixedChars(input);
  // A standing cut lies after the layout's first turn: the plan's estimate with it, from its items
  // (its replacement as long as it is, when the pinned items it carries make it longer).
  const standing = Math.max(summaryChars, input.state.compaction?.replacement.length ?? 0);
  const kept = standingItem === 0 ? Infinity : fixed + standing + tailChars(input, standingItem);
  const earlyBudgetTokens = earlyBudgetOf(budgetTokens);
  const previousTurn = standingItem === 0 ? 0 : turns.findIndex((t) => t.first === standingItem);
  // Under the early budget only the call one reply past the standing cut may compact (to finish it).
  const finishing = previousTurn > 0 && repliesPast((i) => turns[i]?.role, previousTurn) === 1;
  if (!finishing && Math.ceil(kept * request.perChar) <= earlyBudgetTokens) {
    return { plan: { kind: 'keep', cut: standingItem, reason: 'under-budget' }, summaryChars };
  }
  const items = sentSpans(input.wire.messageSpans, input.edits.within(0, input.original.length));
  // A turn's base64 images count by the provider's rule, not as text.
  const images = turnImageCharDeltas({
    text: input.original,
    spans: input.wire.messageSpans,
    turnFirsts: turns.map((turn) => turn.first),
    tokensPerChar: request.perChar,
  });
  const planInput = {
    roles: turns.map((turn) => turn.role),
    messageChars: withImageDeltas(turnChars(input.layout, items), images),
    clientMessageChars: withImageDeltas(turnChars(input.layout, input.wire.messageSpans), images),
    pinnedChars: pinnedChars(input.layout, input.wire.messageSpans),
    fixedChars: fixed,
    tokensPerChar: request.perChar,
    budgetTokens,
    earlyBudgetTokens,
    previousCut: Math.max(0, previousTurn),
    summaryChars,
  };
  const plan = withinRisk(input.earlyRisk, planInput, planWireCompaction(planInput));
  const cut = plan.cut === 0 ? 0 : (turns[plan.cut]?.first ?? 0);
  return { plan: { ...plan, cut }, summaryChars };
}

/**
 * The sent text with its items `[first, cut)` replaced by `replacement`: only the text before and
 * after them is spliced.
 */
function spliceMessages(
  input: LaidOut,
  region: { first: number; cut: number },
  replacement: string,
) {
  const spans = input.wire.messageSpans;
  const from = spans[region.first]?.start ?? 0;
  const after = spans[region.cut]?.start ?? from;
  const parts = [
    ...input.sent(0, from),
    `${replacement},`,
    ...input.sent(after, input.original.length),
  ];
  const chars = parts.reduce((sum, part) => sum + part.length, 0);
  return { parts, chars, removedChars: input.edits.sentChars - chars };
}

/**
 * Far under any budget with nothing standing, as sent and as the client sent it: no need to read
 * the request again.
 */
function clearlyUnder(input: CompactInput, chars: number, perChar: number): boolean {
  const floor =
    input.budgetTokens ??
    defaultWorkingBudget({
      model: input.model,
      longContext: input.longContext,
      client: input.client,
    });
  const larger = Math.max(chars, input.original.length);
  return input.state.compaction === undefined && larger * perChar <= earlyBudgetOf(floor);
}

/** Never changes the request when nothing needs to go; see the module header. */
export function compactWire(request: CompactInput): CompactOutcome {
  const perChar = request.state.promptTokensPerChar ?? DEFAULT_TOKENS_PER_CHAR;
  if (clearlyUnder(request, request.edits.sentChars, perChar)) return { kind: 'none' };
  const input: LaidOut = { ...request, layout: request.layout() };
  const standing = standingCut(input);
  const previousCut = standing.cut;
  if (previousCut === 0 && !input.readOnly) input.state.compaction = undefined;
  const { plan, summaryChars } = planFor(input, { standingItem: previousCut, perChar });
  const built =
    plan.kind === 'compact'
      ? buildCompaction(input, plan.cut, { chars: summaryChars, mark: standing.mark })
      : undefined;
  const compaction = built ?? input.state.compaction;
  if (plan.cut === 0 || compaction === undefined) return { kind: 'none' };
  if (!input.readOnly) {
    input.state.compaction = {
      start: compaction.start,
      cut: compaction.cut,
      regionHash: compaction.regionHash,
      canonicalHash: compaction.canonicalHash,
      replacement: compaction.replacement,
    };
  }
  const region = { first: compaction.start, cut: plan.cut };
  const spliced = spliceMessages(input, region, compaction.replacement);
  const kind = built === undefined ? 'kept' : 'compacted';
  // A standing compaction repeated keeps what it replaces out of the prompt.
  const keptOutTokens = kind === 'kept' ? spliced.removedChars * perChar : 0;
  const booking = input.readOnly ? 0 : compactionBooking(input.earlyRisk, { plan, keptOutTokens });
  return {
    kind,
    cut: plan.cut - compaction.start,
    parts: spliced.parts,
    chars: spliced.chars,
    removedChars: spliced.removedChars,
    recalls: built?.recalls ?? [],
    booking,
  };
}
