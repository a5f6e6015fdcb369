/**
 * What the context holds and what density and compression did to it this session: the numbers
 * behind the CLI's `/context` view and footer, kept from the CompressionHandler's events.
 */
import type { HistoryService } from '../services/history/HistoryService.js';
import type { IContent, Speaker } from '../services/history/IContent.js';
import { contentTokenText } from '../services/history/TokenCounter.js';
import type {
  CompressionEvent,
  CompressionHandler,
  DensityAppliedEvent,
} from '../core/CompressionHandler.js';
import { recallIdsNamedIn } from '../core/compression/recallPointers.js';
import type { CompressionNoopReason, CompressionStrategyName } from '../core/compression/types.js';
import type { DensityCacheTotals } from '../scheduler/densityCacheLedger.js';
import type { DensityLedgerView } from '../scheduler/DensityScheduler.js';

export interface DensityPassTotals {
  /** Items the pass pruned: stale read pairs, inclusion spans, or results replaced. */
  readonly count: number;
  readonly tokens: number;
}

export interface DensityTotals {
  readonly readWrite: DensityPassTotals;
  readonly dedup: DensityPassTotals;
  readonly recency: DensityPassTotals;
  /** How many density edits changed the history (each one costs a prompt-cache miss after it). */
  readonly edits: number;
  /** Tokens a cache-aware schedule is holding back until an edit pays for itself (0 when none). */
  readonly deferredTokens: number;
}

/** Repeated content recorded as a note naming the copy already in context. */
export interface KeptOutTotals {
  readonly notes: number;
  /** Tokens those notes kept out of the history (content less the note). */
  readonly tokens: number;
}

export interface CompressionRecord {
  readonly at: number;
  readonly strategy: CompressionStrategyName;
  readonly kind: 'applied' | 'noop';
  readonly reason?: CompressionNoopReason;
  readonly tokensBefore: number;
  readonly tokensAfter: number;
}

export interface HistoryBreakdown {
  readonly totalTokens: number;
  readonly entries: number;
  readonly bySpeaker: Readonly<Record<Speaker, number>>;
  /** Tokens of tool calls and responses, by tool name. */
  readonly byTool: Readonly<Record<string, number>>;
}

const ZERO_PASS: DensityPassTotals = { count: 0, tokens: 0 };

function addPass(pass: DensityPassTotals, count: number, tokens: number): DensityPassTotals {
  return { count: pass.count + count, tokens: pass.tokens + tokens };
}

export class ContextStats {
  private density: DensityTotals = {
    readWrite: ZERO_PASS,
    dedup: ZERO_PASS,
    recency: ZERO_PASS,
    edits: 0,
    deferredTokens: 0,
  };
  private readonly records: CompressionRecord[] = [];
  private kept: KeptOutTotals = { notes: 0, tokens: 0 };
  private keptPending: Promise<void> = Promise.resolve();
  private readonly unsubscribe: (() => void)[];
  /** What density did to the prompt cache, kept by the handler's scheduler; read only here. */
  private readonly cache: DensityLedgerView;

  constructor(handler: CompressionHandler) {
    this.cache = handler.scheduler.ledger;
    this.unsubscribe = [
      handler.events.on('densityApplied', (event) => this.onDensity(event)),
      handler.events.on('densityDeferred', (event) => {
        this.density = { ...this.density, deferredTokens: event.removedTokens };
      }),
      handler.events.on('compressed', (event) => this.onCompression(event)),
    ];
  }

  densityTotals(): DensityTotals {
    return this.density;
  }

  /** Tokens all density passes reclaimed this session. */
  reclaimedTokens(): number {
    const { readWrite, dedup, recency } = this.density;
    return readWrite.tokens + dedup.tokens + recency.tokens;
  }

  /** A repeated copy was recorded as a note; `saved` resolves to the tokens it kept out. */
  keptOut(saved: Promise<number>): void {
    this.keptPending = this.keptPending
      .then(() => saved)
      .then(
        (tokens) => {
          this.kept = {
            notes: this.kept.notes + 1,
            tokens: this.kept.tokens + Math.max(0, tokens),
          };
        },
        () => {
          this.kept = { ...this.kept, notes: this.kept.notes + 1 };
        },
      );
  }

  /** Notes recorded so far and the tokens they kept out, once every count has settled. */
  async keptOutTotals(): Promise<KeptOutTotals> {
    await this.keptPending;
    return this.kept;
  }

  compressions(): readonly CompressionRecord[] {
    return this.records;
  }

  /** What density's edits did to the prompt cache so far. */
  densityCache(): DensityCacheTotals {
    return this.cache.totals();
  }

  dispose(): void {
    for (const off of this.unsubscribe) off();
  }

  private onDensity(event: DensityAppliedEvent): void {
    const { metadata, removedTokens } = event;
    this.density = {
      readWrite: addPass(this.density.readWrite, metadata.readWrite, removedTokens.readWrite),
      dedup: addPass(this.density.dedup, metadata.dedup, removedTokens.dedup),
      recency: addPass(this.density.recency, metadata.recency, removedTokens.recency),
      edits: this.density.edits + 1,
      deferredTokens: 0,
    };
  }

  private onCompression(event: CompressionEvent): void {
    const { result } = event;
    this.records.push({
      at: event.at,
      strategy: event.strategy,
      kind: result.kind,
      ...(result.kind === 'noop' ? { reason: result.reason } : {}),
      tokensBefore: event.tokensBefore,
      tokensAfter: event.tokensAfter,
    });
  }
}

/** Splits an entry's token count over its tool blocks in proportion to their text. */
function addToolShares(entry: IContent, tokens: number, byTool: Record<string, number>): void {
  const sizes = entry.blocks.map(
    (block) => contentTokenText({ speaker: entry.speaker, blocks: [block] }).length,
  );
  const total = sizes.reduce((a, b) => a + b, 0);
  entry.blocks.forEach((block, i) => {
    const name =
      block.type === 'tool_call'
        ? block.name
        : block.type === 'tool_response'
          ? block.toolName
          : undefined;
    if (name === undefined || total === 0) return;
    byTool[name] = (byTool[name] ?? 0) + Math.round((tokens * (sizes[i] ?? 0)) / total);
  });
}

/** Tokens by speaker and by tool, from the history's cached per-entry counts (settle first). */
export function breakdownHistory(history: HistoryService): HistoryBreakdown {
  const bySpeaker: Record<Speaker, number> = { human: 0, ai: 0, tool: 0 };
  const byTool: Record<string, number> = {};
  for (const entry of history.getRawHistory()) {
    const tokens = history.tokensOf(entry) ?? 0;
    bySpeaker[entry.speaker] += tokens;
    if (entry.blocks.some((b) => b.type === 'tool_call' || b.type === 'tool_response')) {
      addToolShares(entry, tokens, byTool);
    }
  }
  return { totalTokens: history.getTotalTokens(), entries: history.length, bySpeaker, byTool };
}

/** What the context names for `recall`: distinct recall ids in pointers and trails. */
export interface RecallableTotals {
  /** Distinct recall ids the history names (pruned results, cut inclusions, summaries, trail). */
  readonly ids: number;
  /** Entries naming at least one. */
  readonly entries: number;
}

/** The recall ids each entry of `history` names (pointers, summaries, the artifact trail). */
function recallIdsNamedBy(entry: IContent): string[] {
  const ids: string[] = [];
  for (const block of entry.blocks) {
    const text =
      block.type === 'text'
        ? block.text
        : block.type === 'tool_response' && typeof block.result === 'string'
          ? block.result
          : '';
    ids.push(...recallIdsNamedIn(text));
  }
  return ids;
}

/** Every recall id `entries` name. */
export function namedRecallIds(entries: readonly IContent[]): Set<string> {
  return new Set(entries.flatMap(recallIdsNamedBy));
}

/** Counts the recall ids `history` names; for `/context` and reports. */
export function recallableTotals(history: readonly IContent[]): RecallableTotals {
  const ids = new Set<string>();
  let entries = 0;
  for (const entry of history) {
    const named = recallIdsNamedBy(entry);
    for (const id of named) ids.add(id);
    if (named.length > 0) entries++;
  }
  return { ids: ids.size, entries };
}
