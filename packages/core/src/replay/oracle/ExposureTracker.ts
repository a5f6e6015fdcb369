/**
 * Follows every exposure of a replayed session: it enters the context when its entry is recorded
 * and leaves when a density edit or a compression removes or changes it; each loss gets the
 * oracle's verdict at that moment. Totals are in tokens (each exposure's count × its share).
 */
import type { IContent, ToolResponseBlock } from '../../services/history/IContent.js';
import { oracleResultText } from './oracleFacts.js';
import {
  classifyLoss,
  indexLedger,
  isStaleAt,
  type LedgerIndex,
  type LossVerdict,
} from './classifyLoss.js';
import type { Exposure, ExposureCategory, ExposureLedger } from './exposureLedger.js';

export type LossCause = 'density' | 'compression';

/** The recall ids a policy gives removed content: of a whole tool response, of an `@` span. */
export interface RecallIdResolver {
  ofResponse(block: ToolResponseBlock): string;
  ofInclusion(spanText: string): string;
  /** The recall ids the entries name (what a policy left behind for `recall`). */
  namedIn(entries: readonly IContent[]): ReadonlySet<string>;
}

export type CategoryTokens = Record<ExposureCategory, number>;

/** One exposure a policy removed, with the verdict and what caused it. */
export interface ExposureLoss {
  readonly exposure: Exposure;
  readonly tokens: number;
  readonly verdict: LossVerdict;
  readonly cause: LossCause;
  /** Recording position when it was removed. */
  readonly at: number;
  /** The edit left a pointer or summary naming the original's recall id. */
  readonly recallable: boolean;
}

/** A stale exposure the policy did not remove while stale, and what became of it. */
export interface UnreclaimedStale {
  readonly exposure: Exposure;
  readonly tokens: number;
  /** Still in context at the end, or removed earlier while live or duplicate. */
  readonly fate: 'in-context' | 'lost-live' | 'lost-duplicate';
}

export interface ExposureTotals {
  /** All file content that entered the context, by how it entered. */
  readonly exposureTokens: CategoryTokens;
  /** Exposures made stale by a later successful write, by the end of the session. */
  readonly staleTokens: CategoryTokens;
  /** Of those, removed while already stale. */
  readonly staleReclaimedTokens: CategoryTokens;
  /** Tokens removed per cause and verdict. */
  readonly lostTokens: Record<LossCause, Record<LossVerdict, number>>;
  /** Of `lostTokens`, what stays recallable by an id the context still names. */
  readonly recallableLostTokens: Record<LossCause, Record<LossVerdict, number>>;
  readonly losses: readonly ExposureLoss[];
  readonly unreclaimedStale: readonly UnreclaimedStale[];
}

const zeroCategories = (): CategoryTokens => ({ reads: 0, inclusions: 0, shellReads: 0 });

function pushTo<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

export class ExposureTracker {
  private readonly index: LedgerIndex;
  private readonly byCallId = new Map<string, Exposure[]>();
  private readonly byEntryId = new Map<string, Exposure[]>();
  private readonly present = new Set<number>();
  private readonly seen = new Set<number>();
  /** The response block each present response exposure was recorded in (identity shortcut). */
  private readonly recordedBlocks = new Map<string, ToolResponseBlock>();
  private readonly losses: ExposureLoss[] = [];
  private now = -1;

  constructor(
    ledger: ExposureLedger,
    /** Tokens of each exposure, by id (its text's count × its share). */
    private readonly tokens: (exposure: Exposure) => number,
    /**
     * How the policy names removed content for `recall`. Given by the replay, not
     * imported: the oracle never uses the strategies' code. Without it nothing counts as recallable.
     */
    private readonly recallIds?: RecallIdResolver,
  ) {
    this.index = indexLedger(ledger);
    for (const exposure of ledger.exposures) {
      const { locator } = exposure;
      if (locator.kind === 'response') pushTo(this.byCallId, locator.callId, exposure);
      else pushTo(this.byEntryId, locator.entryId, exposure);
    }
  }

  /** The replay has consumed the recording up to `position`. */
  advance(position: number): void {
    this.now = Math.max(this.now, position);
  }

  isPresent(exposureId: number): boolean {
    return this.present.has(exposureId);
  }

  /** An entry entered the history: its exposures are in context from now on. */
  onRecorded(entry: IContent): void {
    // A response whose text does not hold an exposure's text (e.g. a re-read the policy answered
    // "unchanged since call X") does not show it: the exposure never enters.
    // Likewise an `@` inclusion the policy recorded as a note naming an earlier copy.
    const shownBy = new Map<string, string>();
    for (const block of entry.blocks) {
      if (block.type === 'tool_response') shownBy.set(block.callId, oracleResultText(block.result));
    }
    const shows = (e: Exposure): boolean => {
      if (e.locator.kind === 'response')
        return (shownBy.get(e.locator.callId) ?? '').includes(e.text);
      const block = entry.blocks[e.locator.blockIndex];
      return block?.type !== 'text' || block.text.includes(e.text);
    };
    for (const exposure of this.groupsIn(entry, (e) => !this.seen.has(e.id) && shows(e)).flat()) {
      this.seen.add(exposure.id);
      this.present.add(exposure.id);
    }
    if (entry.speaker !== 'tool') return;
    for (const block of entry.blocks) {
      if (block.type === 'tool_response') this.recordedBlocks.set(block.callId, block);
    }
  }

  /**
   * The history changed from `before` to `after` (entries compared by identity). Exposures in
   * entries that are gone and not carried unchanged into a new entry are lost to `cause`.
   */
  onEdit(before: readonly IContent[], after: readonly IContent[], cause: LossCause): void {
    const afterSet = new Set(after);
    const beforeSet = new Set(before);
    const added = after.filter((entry) => !beforeSet.has(entry));
    const survivors = new SurvivorIndex(added);
    const lost: Exposure[] = [];
    for (const entry of before) {
      if (afterSet.has(entry)) continue;
      for (const group of this.groupsIn(entry, (e) => this.present.has(e.id))) {
        lost.push(...survivors.lostOf(group, (callId) => this.recordedBlocks.get(callId)));
      }
    }
    for (const exposure of lost) this.present.delete(exposure.id);
    const named =
      lost.length === 0 || this.recallIds === undefined
        ? new Set<string>()
        : this.recallIds.namedIn(added);
    for (const exposure of lost) {
      const verdict = classifyLoss(this.index, exposure, this.now, (id) => this.present.has(id));
      const recallable = named.has(this.recallIdOf(exposure) ?? '');
      const tokens = this.tokens(exposure);
      this.losses.push({ exposure, tokens, verdict, cause, at: this.now, recallable });
    }
  }

  totals(): ExposureTotals {
    const exposureTokens = zeroCategories();
    const staleTokens = zeroCategories();
    const lossOf = new Map(this.losses.map((loss) => [loss.exposure.id, loss]));
    const unreclaimedStale: UnreclaimedStale[] = [];
    for (const exposure of this.index.ledger.exposures) {
      if (!this.seen.has(exposure.id)) continue;
      const tokens = this.tokens(exposure);
      exposureTokens[exposure.category] += tokens;
      if (!isStaleAt(this.index, exposure, Number.POSITIVE_INFINITY)) continue;
      staleTokens[exposure.category] += tokens;
      const verdict = lossOf.get(exposure.id)?.verdict;
      if (verdict === 'stale') continue;
      const fate =
        verdict === undefined ? 'in-context' : verdict === 'live' ? 'lost-live' : 'lost-duplicate';
      unreclaimedStale.push({ exposure, tokens, fate });
    }
    const staleReclaimedTokens = zeroCategories();
    const lostTokens: ExposureTotals['lostTokens'] = {
      density: { stale: 0, duplicate: 0, live: 0 },
      compression: { stale: 0, duplicate: 0, live: 0 },
    };
    const recallableLostTokens: ExposureTotals['recallableLostTokens'] = {
      density: { stale: 0, duplicate: 0, live: 0 },
      compression: { stale: 0, duplicate: 0, live: 0 },
    };
    for (const loss of this.losses) {
      lostTokens[loss.cause][loss.verdict] += loss.tokens;
      if (loss.recallable) recallableLostTokens[loss.cause][loss.verdict] += loss.tokens;
      if (loss.verdict === 'stale') staleReclaimedTokens[loss.exposure.category] += loss.tokens;
    }
    return {
      exposureTokens,
      staleTokens,
      staleReclaimedTokens,
      lostTokens,
      recallableLostTokens,
      losses: this.losses,
      unreclaimedStale,
    };
  }

  /** The recall id of an exposure's original (its whole response, or its inclusion span). */
  private recallIdOf(exposure: Exposure): string | undefined {
    const { locator } = exposure;
    if (this.recallIds === undefined) return undefined;
    if (locator.kind === 'human') return this.recallIds.ofInclusion(exposure.text);
    const block = this.recordedBlocks.get(locator.callId);
    return block === undefined ? undefined : this.recallIds.ofResponse(block);
  }

  /** An entry's exposures that pass `keep`, grouped by the response or human entry holding them. */
  private groupsIn(entry: IContent, keep: (exposure: Exposure) => boolean): Exposure[][] {
    const groups: Exposure[][] = [];
    const addGroup = (list: readonly Exposure[] | undefined) => {
      const kept = list?.filter(keep) ?? [];
      if (kept.length > 0) groups.push(kept);
    };
    if (entry.speaker === 'human') {
      const id = entry.metadata?.id;
      addGroup(typeof id === 'string' ? this.byEntryId.get(id) : undefined);
      return groups;
    }
    for (const block of entry.blocks) {
      if (block.type === 'tool_response') addGroup(this.byCallId.get(block.callId));
    }
    return groups;
  }
}

/** The new entries of an edit, indexed for "is this exposure still there, unchanged?". */
class SurvivorIndex {
  private readonly responses = new Map<string, ToolResponseBlock[]>();
  private readonly humans = new Map<string, IContent>();

  constructor(added: readonly IContent[]) {
    for (const entry of added) {
      const id = entry.metadata?.id;
      if (entry.speaker === 'human' && typeof id === 'string') this.humans.set(id, entry);
      for (const block of entry.blocks) {
        if (block.type === 'tool_response') pushTo(this.responses, block.callId, block);
      }
    }
  }

  /**
   * The exposures of one group (all in one response, or all in one human entry) that no new entry
   * still shows. Identical copies in one text are matched newest first, so a cut older copy is
   * the one reported lost.
   */
  lostOf(
    group: readonly Exposure[],
    recordedBlock: (callId: string) => ToolResponseBlock | undefined,
  ): Exposure[] {
    const available = new Map<string, number>();
    const lost: Exposure[] = [];
    const ordered = [...group].sort((a, b) => b.position - a.position);
    for (const exposure of ordered) {
      const key = `${exposure.locator.kind === 'human' ? exposure.locator.blockIndex : 0}\0${exposure.text}`;
      let count = available.get(key);
      if (count === undefined) {
        count = this.occurrences(exposure, recordedBlock);
        available.set(key, count);
      }
      if (count > 0) available.set(key, count - 1);
      else lost.push(exposure);
    }
    return lost;
  }

  private occurrences(
    exposure: Exposure,
    recordedBlock: (callId: string) => ToolResponseBlock | undefined,
  ): number {
    const { locator } = exposure;
    if (locator.kind === 'response') {
      const blocks = this.responses.get(locator.callId) ?? [];
      const original = recordedBlock(locator.callId);
      const shows = (block: ToolResponseBlock) =>
        block === original || oracleResultText(block.result).includes(exposure.text);
      // A response holds each file once; several files share one response's text.
      return blocks.some(shows) ? Number.POSITIVE_INFINITY : 0;
    }
    const entry = this.humans.get(locator.entryId);
    const block = entry?.blocks[locator.blockIndex];
    return block?.type === 'text' ? countOccurrences(block.text, exposure.text) : 0;
  }
}

function countOccurrences(text: string, needle: string): number {
  if (needle === '') return 0;
  let count = 0;
  let at = text.indexOf(needle);
  while (at !== -1) {
    count++;
    at = text.indexOf(needle, at + needle.length);
  }
  return count;
}
