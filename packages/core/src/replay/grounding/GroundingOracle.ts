/**
 * Fidelity from the agent's next actions: at each model call of a replay, every specific the
 * recorded reply went on to use that first appeared in earlier context is judged against what the
 * policy sent to that call — visible there, recallable (not visible, but the context names the
 * recall id of a recorded tool output that shows it), or hidden. Recall ids are recognised by
 * their documented text shapes (`recall id r…` and the command `dense recall r…`, ten hex digits);
 * what an id stands for is asked of the resolver the caller passes in (a policy's id of each
 * recorded tool response, or the text an archive keeps under an id), so nothing here depends on
 * the strategies' code.
 */
import type { IContent, ToolResponseBlock } from '../../services/history/IContent.js';
import { occursIn, SPECIFIC_KINDS, type SpecificKind } from './extractSpecifics.js';
import { blockText, shownText } from './groundingText.js';
import type { GroundedUse, GroundingPlan } from './planGrounding.js';

export type GroundingVerdict = 'visible' | 'recallable' | 'hidden';

export interface GroundingCounts {
  /** Uses judged: each specific once per model call that used it. */
  readonly specifics: number;
  readonly visible: number;
  readonly recallable: number;
  readonly hidden: number;
}

/** A specific the policy did not show at a call that used it. */
export interface GroundingExample {
  readonly kind: SpecificKind;
  readonly text: string;
  readonly verdict: Exclude<GroundingVerdict, 'visible'>;
  /** Recording position of the reply that used it. */
  readonly at: number;
  /** Recording position of the output or message it first appeared in. */
  readonly origin: number;
}

export interface GroundingTotals extends GroundingCounts {
  readonly byKind: Readonly<Record<SpecificKind, GroundingCounts>>;
  /** The first few hidden and recallable uses, in replay order. */
  readonly examples: readonly GroundingExample[];
}

/** The recall id a policy gives a recorded tool response. */
export type RecallIdOfResponse = (block: ToolResponseBlock) => string;

/** The text a recall archive would give back for an id; `undefined` when it keeps none. */
export interface RecallTextSource {
  readonly textOf: (id: string) => string | undefined;
}

/** How the oracle learns what a named recall id stands for. */
export type RecallResolver = RecallIdOfResponse | RecallTextSource;

export const ZERO_GROUNDING: GroundingCounts = {
  specifics: 0,
  visible: 0,
  recallable: 0,
  hidden: 0,
};

const MAX_EXAMPLES = { hidden: 6, recallable: 3 } as const;
const RECALL_ID_MENTION = /\b(?:recall id|dense recall) (r[0-9a-f]{10})\b/g;

const namedCache = new WeakMap<IContent, readonly string[]>();

function recallIdsNamedBy(entry: IContent): readonly string[] {
  let ids = namedCache.get(entry);
  if (ids === undefined) {
    const text = shownText(entry);
    ids =
      text.includes('recall id') || text.includes('dense recall')
        ? [...new Set([...text.matchAll(RECALL_ID_MENTION)].map((m) => m[1] as string))]
        : [];
    namedCache.set(entry, ids);
  }
  return ids;
}

function addCount(counts: GroundingCounts, verdict: GroundingVerdict): GroundingCounts {
  return { ...counts, specifics: counts.specifics + 1, [verdict]: counts[verdict] + 1 };
}

export class GroundingOracle {
  private counts: GroundingCounts = ZERO_GROUNDING;
  private readonly byKind = new Map<SpecificKind, GroundingCounts>();
  private readonly examples: GroundingExample[] = [];
  private recallTexts: ReadonlyMap<string, string> | undefined;
  private readonly fetched = new Set<string>();

  /**
   * `recall` absent: nothing counts as recallable. `archived`: originals no recorded response is
   * (a summary's removed messages as one transcript), asked when `recall` has no text for an id.
   */
  constructor(
    private readonly plan: GroundingPlan,
    private readonly recall?: RecallResolver,
    private readonly archived?: RecallTextSource,
  ) {}

  /** Whether the reply at recording `position` used anything from earlier context. */
  hasUsesAt(position: number): boolean {
    return this.plan.uses.has(position);
  }

  /**
   * The distinct recall ids the agent would have had to fetch to see every recallable use so far:
   * per use, none when an id already fetched shows it, else the id with the shortest text that does.
   */
  recallIdsNeeded(): readonly string[] {
    return [...this.fetched];
  }

  /** The reply at recording `position` is about to answer a request made of `sent`. */
  onModelCall(sent: readonly IContent[], position: number): void {
    const uses = this.plan.uses.get(position);
    if (uses === undefined) return;
    let named: readonly string[] | undefined;
    for (const use of uses) {
      let verdict: GroundingVerdict = 'visible';
      if (!this.visible(use, sent)) {
        named ??= sent.flatMap(recallIdsNamedBy);
        verdict = this.recallable(use, named) ? 'recallable' : 'hidden';
      }
      this.count(use, verdict, position);
    }
  }

  totals(): GroundingTotals {
    const byKind = Object.fromEntries(
      SPECIFIC_KINDS.map((kind) => [kind, this.byKind.get(kind) ?? ZERO_GROUNDING]),
    ) as Record<SpecificKind, GroundingCounts>;
    return { ...this.counts, byKind, examples: [...this.examples] };
  }

  /** Newest entries first: what a reply uses is most often what it just read. */
  private visible(use: GroundedUse, sent: readonly IContent[]): boolean {
    for (let i = sent.length - 1; i >= 0; i--) {
      const entry = sent[i];
      if (entry !== undefined && occursIn(use.specific, shownText(entry))) return true;
    }
    return false;
  }

  private recallable(use: GroundedUse, named: readonly string[]): boolean {
    if (named.length === 0 || this.recall === undefined) return false;
    let best: { id: string; chars: number } | undefined;
    for (const id of named) {
      const text = this.recallText(this.recall, id);
      if (text === undefined || !occursIn(use.specific, text)) continue;
      if (this.fetched.has(id)) return true;
      if (best === undefined || text.length < best.chars) best = { id, chars: text.length };
    }
    if (best !== undefined) this.fetched.add(best.id);
    return best !== undefined;
  }

  private recallText(recall: RecallResolver, id: string): string | undefined {
    return this.resolvedText(recall, id) ?? this.archived?.textOf(id);
  }

  private resolvedText(recall: RecallResolver, id: string): string | undefined {
    if (typeof recall !== 'function') return recall.textOf(id);
    this.recallTexts ??= new Map(
      this.plan.responses.map(({ block }) => [recall(block), blockText(block)]),
    );
    return this.recallTexts.get(id);
  }

  private count(use: GroundedUse, verdict: GroundingVerdict, at: number): void {
    this.counts = addCount(this.counts, verdict);
    const kind = use.specific.kind;
    this.byKind.set(kind, addCount(this.byKind.get(kind) ?? ZERO_GROUNDING, verdict));
    if (verdict === 'visible') return;
    const shown = this.examples.filter((example) => example.verdict === verdict).length;
    if (shown >= MAX_EXAMPLES[verdict]) return;
    this.examples.push({ kind, text: use.specific.text, verdict, at, origin: use.origin });
  }
}
