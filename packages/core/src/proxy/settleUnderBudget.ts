/**
 * The density step's last stage: the replies at entry for the request's new results, settled
 * against the working budget (a reply never names a result the budget's compaction removed), and
 * the working budget run on the request with the pointers and replies written in.
 */
import { compactWire, type CompactOutcome, type TextEdit } from './budget/compactWire.js';
import { compactionLayout } from './budget/compactionLayout.js';
import type { ConversationState } from './conversationStore.js';
import { repliesUnderBudget } from './entryReplies.js';
import type { JsonNode } from './jsonSpans.js';
import type { PointerSite } from './proxyPointer.js';
import type { RequestRead } from './requestReadCache.js';
import { pointerValue, spliceEdits } from './spliceEdits.js';
import type { WireApi, WireHistory } from './wireHistory.js';

export interface WorkingBudgetOptions {
  /** Tokens; undefined: the default for the request's model. */
  readonly tokens: number | undefined;
  /** Whether the client asked for the 1M-token window. */
  readonly longContext: boolean;
}

/** What of the density step's options this stage reads. */
export interface BudgetStepOptions {
  readonly api: WireApi;
  readonly readOnly?: boolean;
  readonly workingBudget?: WorkingBudgetOptions;
  readonly entryReplies?: boolean;
}

/** The replies at entry for the request's new results, with the working budget applied. */
export function settleUnderBudget(
  options: BudgetStepOptions,
  input: {
    readonly text: string;
    readonly wire: WireHistory;
    readonly model: string | undefined;
    readonly read: RequestRead;
    readonly state: ConversationState;
    readonly pointers: readonly PointerSite[];
  },
): ReturnType<typeof repliesUnderBudget> {
  const { wire, read, state, pointers } = input;
  return repliesUnderBudget({
    wire,
    pointers,
    state,
    options,
    budget: (replies) =>
      applyBudget(options, {
        // Read only with the budget on: a resumed read's text is joined on first use.
        get text() {
          return input.text;
        },
        wire,
        model: input.model,
        root: read.root,
        state,
        sites: [...pointers, ...replies],
      }),
  });
}

function applyBudget(
  options: BudgetStepOptions,
  request: {
    text: string;
    wire: WireHistory;
    sites: readonly PointerSite[];
    model: string | undefined;
    root: JsonNode;
    state: ConversationState;
  },
): CompactOutcome {
  const budget = options.workingBudget;
  if (budget === undefined) return { kind: 'none' };
  const edits: TextEdit[] = request.sites.map((site) => ({
    start: site.start,
    end: site.end,
    length: pointerValue(site).length,
  }));
  return compactWire({
    original: request.text,
    wire: request.wire,
    layout: () => compactionLayout(options.api, request.wire, request.root),
    sent: () => spliceEdits(request.text, request.sites).text,
    edits,
    model: request.model,
    state: request.state.budget,
    budgetTokens: budget.tokens,
    longContext: budget.longContext,
    readOnly: options.readOnly === true,
  });
}
