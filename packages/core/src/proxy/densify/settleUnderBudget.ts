/**
 * The density step's last stage: the replies at entry for the request's new results, settled
 * against the working budget (a reply never names a result the budget's compaction removed), and
 * the working budget run on the request with the pointers and replies written in.
 */
import { compactWire, type CompactOutcome } from '../budget/compactWire.js';
import type { EditSource, TextEdit } from '../budget/sentSpans.js';
import type { EarlyCompactionRisk } from '../budget/earlyCompactionRisk.js';
import { compactionLayout } from '../budget/compactionLayout.js';
import type { CompactionReads } from '../budget/compactionReads.js';
import type { ConversationState } from '../decide/conversationStore.js';
import type { AgentClient } from '../budget/agentClient.js';
import { repliesUnderBudget } from '../decide/entryReplies.js';
import type { RequestRead } from '../wire/requestReadCache.js';
import { partsOf, type TextSlices } from '../../utils/TextSlices.js';
import {
  charsTakenOut,
  orderedSites,
  pointerValue,
  type PointerSite,
} from '../splice/spliceEdits.js';
import type { WireApi, WireHistory } from '../wire/wireHistory.js';

export interface WorkingBudgetOptions {
  /** Tokens; undefined: the default for the request's model. */
  readonly tokens: number | undefined;
  /** Whether the client asked for the 1M-token window. */
  readonly longContext: boolean;
  /** The agent CLI that sent the request, when known: its default budget follows its rules. */
  readonly client?: AgentClient | undefined;
}

/** What of the density step's options this stage reads. */
export interface BudgetStepOptions {
  readonly api: WireApi;
  readonly readOnly?: boolean;
  readonly workingBudget?: WorkingBudgetOptions;
  readonly entryReplies?: boolean;
  readonly repeatedLinesReplies?: boolean;
}

/**
 * The replies at entry for the request's new results, with the working budget applied; the
 * request's entry in the compaction account booked once, however many times the budget ran.
 */
export function settleUnderBudget(
  options: BudgetStepOptions,
  input: {
    readonly text: TextSlices;
    readonly wire: WireHistory;
    readonly model: string | undefined;
    readonly read: RequestRead;
    readonly state: ConversationState;
    readonly pointers: readonly PointerSite[];
    /** Where each standing compaction was last confirmed (`CompactionReads`). */
    readonly compactionReads: CompactionReads;
    /** What a compaction the request as sent does not need yet may cost up front. */
    readonly earlyRisk: EarlyCompactionRisk;
  },
): ReturnType<typeof repliesUnderBudget> {
  const { wire, read, state, pointers } = input;
  const settled = repliesUnderBudget({
    wire,
    pointers,
    state,
    options,
    budget: (replies) =>
      applyBudget(options, {
        text: input.text,
        wire,
        model: input.model,
        read,
        state,
        sites: [...pointers, ...replies],
        compactionReads: input.compactionReads,
        earlyRisk: input.earlyRisk,
      }),
  });
  if (options.readOnly !== true && settled.compacted.kind !== 'none') {
    state.budget.compactionNet = (state.budget.compactionNet ?? 0) + settled.compacted.booking;
  }
  return settled;
}

function applyBudget(
  options: BudgetStepOptions,
  request: {
    text: TextSlices;
    wire: WireHistory;
    sites: readonly PointerSite[];
    model: string | undefined;
    read: RequestRead;
    state: ConversationState;
    compactionReads: CompactionReads;
    earlyRisk: EarlyCompactionRisk;
  },
): CompactOutcome {
  const budget = options.workingBudget;
  if (budget === undefined) return { kind: 'none' };
  const { text, read, state } = request;
  const pointers = editSource(text, request.sites);
  const outcome = compactWire({
    original: text,
    wire: request.wire,
    layout: () => compactionLayout(options.api, request.wire, read.root),
    sent: pointers.sent,
    edits: pointers.edits,
    verified: request.compactionReads.verifiedRegion(state.budget, read),
    model: request.model,
    state: state.budget,
    budgetTokens: budget.tokens,
    longContext: budget.longContext,
    client: budget.client,
    earlyRisk: request.earlyRisk,
    readOnly: options.readOnly === true,
  });
  request.compactionReads.record(state.budget, read, outcome.kind !== 'none');
  return outcome;
}

/**
 * The pointers as the budget reads them: their total effect, and those inside a range (in text
 * order; each range is read once, none before the first pointer or after the last).
 */
function editSource(text: TextSlices, sites: readonly PointerSite[]) {
  let removed = 0;
  let first = Infinity;
  let last = -Infinity;
  for (const site of sites) {
    removed += charsTakenOut(site);
    first = Math.min(first, site.start);
    last = Math.max(last, site.end);
  }
  const ranges = new Map<string, readonly PointerSite[]>();
  const inside = (from: number, to: number): readonly PointerSite[] => {
    if (to <= first || from >= last) return [];
    const key = `${from}:${to}`;
    let found = ranges.get(key);
    if (found === undefined) {
      found = orderedSites(sites.filter((site) => site.start >= from && site.end <= to));
      ranges.set(key, found);
    }
    return found;
  };
  const edits: EditSource = {
    sentChars: text.length - removed,
    within: (from, to) =>
      inside(from, to).map((site): TextEdit => ({
        start: site.start,
        end: site.end,
        length: pointerValue(site).length,
      })),
  };
  return {
    edits,
    sent: (from: number, to: number) => spliceRange(text, inside(from, to), from, to),
  };
}

/**
 * `text[from, to)` with the pointers at `sites` (inside it, in text order, without overlaps)
 * written in, as parts (never joined: a compacted request goes out as them): the same text as
 * that range of the whole splice, since a site lies inside one message.
 */
function spliceRange(
  text: TextSlices,
  sites: readonly PointerSite[],
  from: number,
  to: number,
): readonly string[] {
  const parts: string[] = [];
  let cursor = from;
  for (const site of sites) {
    parts.push(...partsOf(text, cursor, site.start), pointerValue(site));
    cursor = site.end;
  }
  parts.push(...partsOf(text, cursor, to));
  return parts;
}
