/**
 * Fidelity from the agent's next actions: at each model call of a replay, every specific the
 * recorded reply went on to use that first appeared in earlier context is judged against what the
 * policy sent to that call — visible there, recallable (not visible, but the context names the
 * recall id of a recorded tool output that shows it), or hidden. Recall ids are recognised by
 * their documented text shape (`recall id r` and ten hex digits); which output an id stands for is
 * asked of the resolver the caller passes in, so nothing here depends on the strategies' code.
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

export const ZERO_GROUNDING: GroundingCounts = {
  specifics: 0,
  visible: 0,
  recallable: 0,
  hidden: 0,
};

const MAX_EXAMPLES = { hidden: 6, recallable: 3 } as const;
const RECALL_ID_MENTION = /\brecall id (r[0-9a-f]{10})\b/g;

const namedCache = new WeakMap<IContent, readonly string[]>();

function recallIdsNamedBy(entry: IContent): readonly string[] {
  let ids = namedCache.get(entry);
  if (ids === undefined) {
    const text = shownText(entry);
    ids = text.includes('recall id')
      ? [...text.matchAll(RECALL_ID_MENTION)].map((m) => m[1] as string)
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

  /** `recallIdOf` absent: nothing counts as recallable. */
  constructor(
    private readonly plan: GroundingPlan,
    private readonly recallIdOf?: RecallIdOfResponse,
  ) {}

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
    if (named.length === 0 || this.recallIdOf === undefined) return false;
    const texts = this.recallTextsById(this.recallIdOf);
    return named.some((id) => {
      const text = texts.get(id);
      return text !== undefined && occursIn(use.specific, text);
    });
  }

  private recallTextsById(recallIdOf: RecallIdOfResponse): ReadonlyMap<string, string> {
    this.recallTexts ??= new Map(
      this.plan.responses.map(({ block }) => [recallIdOf(block), blockText(block)]),
    );
    return this.recallTexts;
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
