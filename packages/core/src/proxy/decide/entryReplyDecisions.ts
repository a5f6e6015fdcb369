/**
 * A conversation's replies at entry as decided, by result position (`messageIndex:blockIndex`),
 * with the positions whose decision is a reply kept apart: only those can change a request whose
 * results are all old, so a request walks them and its new results, never every result.
 */
import type { ResultSite } from '../wire/wireHistory.js';

/** What was decided for a result the first time the proxy saw it, by position. */
export interface EntryReplyDecision {
  /** The recall id of the result decided (a rewound history may hold another result there). */
  readonly recallId: string;
  /** The call the reply names and the reply; undefined: the result goes out as it is. */
  readonly reply?: {
    /** The call named; for a repeated-lines reply, a key of its text (its markers name the calls). */
    readonly referent: string;
    /** The reply as sent. */
    readonly text: string;
    /** A repeated-lines reply's text from the CLI, its markers checked against each request. */
    readonly lines?: string;
  };
}

/** Where a result sits in the request. */
type Position = Pick<ResultSite, 'messageIndex' | 'blockIndex'>;

const POSITIONS = new WeakMap<Position, string>();

/** `message:block`, kept per site object (a request's sites are mostly the previous one's). */
export function positionOf(site: Position): string {
  let position = POSITIONS.get(site);
  if (position === undefined) {
    position = `${site.messageIndex}:${site.blockIndex}`;
    POSITIONS.set(site, position);
  }
  return position;
}

export function parsePosition(position: string): Position {
  const [messageIndex, blockIndex] = position.split(':').map(Number) as [number, number];
  return { messageIndex, blockIndex };
}

/** Whether `a` comes before `b` in the request (message, then block). */
export const before = (a: Position, b: Position): boolean =>
  a.messageIndex < b.messageIndex ||
  (a.messageIndex === b.messageIndex && a.blockIndex < b.blockIndex);

/** Index of the first of `sites` (in request order) not before `site`. */
function firstNotBefore(sites: readonly ResultSite[], site: Position): number {
  let low = 0;
  let high = sites.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (before(sites[middle] as ResultSite, site)) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** Per conversation: decisions by position. */
export class EntryReplyDecisions {
  private readonly byPosition = new Map<string, EntryReplyDecision>();
  /** Positions whose decision holds a reply. */
  private readonly replying = new Set<string>();

  get size(): number {
    return this.byPosition.size;
  }

  /** Every decision, by position (a shared store keeps them between requests). */
  entries(): readonly (readonly [string, EntryReplyDecision])[] {
    return [...this.byPosition];
  }

  static restore(entries: readonly (readonly [string, EntryReplyDecision])[]): EntryReplyDecisions {
    const decisions = new EntryReplyDecisions();
    for (const [position, decision] of entries) decisions.set(position, decision);
    return decisions;
  }

  get(position: string): EntryReplyDecision | undefined {
    return this.byPosition.get(position);
  }

  set(position: string, decision: EntryReplyDecision): void {
    this.byPosition.set(position, decision);
    if (decision.reply === undefined) this.replying.delete(position);
    else this.replying.add(position);
  }

  delete(position: string): void {
    this.byPosition.delete(position);
    this.replying.delete(position);
  }

  /**
   * The sites a request (`sites`, in request order) can change: those whose decision is a reply
   * before `from`, then every site from message `from` on, in request order. Positions with a
   * reply decision that are no site of the request come back in `gone`.
   */
  sitesToWalk(
    sites: readonly ResultSite[],
    from: number,
  ): { readonly walk: readonly ResultSite[]; readonly gone: readonly string[] } {
    const first = firstNotBefore(sites, { messageIndex: from, blockIndex: 0 });
    const walk: ResultSite[] = [];
    const gone: string[] = [];
    const earlier = [...this.replying].map(parsePosition).filter((s) => s.messageIndex < from);
    earlier.sort((a, b) => a.messageIndex - b.messageIndex || a.blockIndex - b.blockIndex);
    for (const position of earlier) {
      const site = sites[firstNotBefore(sites, position)];
      if (site?.messageIndex === position.messageIndex && site.blockIndex === position.blockIndex)
        walk.push(site);
      else gone.push(positionOf(position));
    }
    for (let i = first; i < sites.length; i++) walk.push(sites[i] as ResultSite);
    return { walk, gone };
  }

  /** Drops the decisions for positions that are no result of `sites` once they outnumber them. */
  prune(sites: readonly ResultSite[]): void {
    if (this.byPosition.size <= sites.length) return;
    const present = new Set(sites.map(positionOf));
    for (const position of this.byPosition.keys())
      if (!present.has(position)) this.delete(position);
  }
}
