/**
 * The usage Codex records per model call, in `event_msg` `token_count` records: `info.
 * last_token_usage` is the call's (its `input_tokens` is the whole prompt, cached tokens included),
 * `info.model_context_window` the window Codex works with. Each call's count is written once when it
 * changes `total_token_usage`, then repeated unchanged (after the tool output, after a compaction);
 * the repeats are not calls. Rollouts up to 0.55 write the count before the reply's items, later
 * ones after them: a count that arrives while a reply is open is that reply's, one that arrives
 * between replies is the next one's. A count with no input tokens (what Codex notes at a remote
 * compaction) is no model call.
 */
import type { UsageStats } from '../../services/history/IContent.js';
import { num, obj, type Json } from '../jsonValues.js';

/** A `token_count` payload's call usage and window, when it records a new model call. */
interface TokenCount {
  readonly usage?: UsageStats;
  readonly contextWindow?: number;
}

function readTokenCount(
  payload: Json,
  previousTotal: number | undefined,
): TokenCount & {
  total?: number;
} {
  const info = obj(payload.info);
  const window = num(info.model_context_window);
  const contextWindow = window !== undefined && window > 0 ? { contextWindow: window } : {};
  const total = num(obj(info.total_token_usage).total_tokens);
  const last = obj(info.last_token_usage);
  const input = num(last.input_tokens) ?? 0;
  if (total === undefined || total === previousTotal || input <= 0) {
    return { ...contextWindow, ...(total === undefined ? {} : { total }) };
  }
  const output = num(last.output_tokens) ?? 0;
  const cached = num(last.cached_input_tokens);
  return {
    ...contextWindow,
    total,
    usage: {
      promptTokens: input,
      completionTokens: output,
      totalTokens: input + output,
      ...(cached === undefined ? {} : { cachedTokens: cached }),
    },
  };
}

/**
 * Follows replies and `token_count` records and says which AI entry (by its index in the
 * importer's content) each call's usage belongs to.
 */
export class CodexUsageTracker {
  private total: number | undefined;
  private pending: UsageStats | undefined;
  private replyUsage: UsageStats | undefined;
  private replyEntry: number | undefined;
  private replying = false;
  private readonly byEntry = new Map<number, UsageStats>();
  /** The window the rollout first recorded (tokens). */
  contextWindow: number | undefined;

  /** A `token_count` payload. */
  tokenCount(payload: Json): void {
    const read = readTokenCount(payload, this.total);
    this.contextWindow ??= read.contextWindow;
    if (read.total !== undefined) this.total = read.total;
    if (read.usage === undefined) return;
    if (this.replying) {
      this.replyUsage ??= read.usage;
      this.settle();
    } else this.pending = read.usage;
  }

  /** A reply's first item: a count recorded before it is its own. */
  replyStarted(): void {
    this.replying = true;
    this.replyUsage = this.pending;
    this.replyEntry = undefined;
    this.pending = undefined;
  }

  /** The open reply's AI entry is at `index` of the content. */
  replyEntryAt(index: number): void {
    if (!this.replying) return;
    this.replyEntry = index;
    this.settle();
  }

  /** The reply ended (a call output, a user message, a compaction). */
  replyEnded(): void {
    this.replying = false;
    this.replyUsage = undefined;
    this.replyEntry = undefined;
  }

  /** A compaction: a count waiting for the next reply was the compaction's, not a reply's. */
  compacted(): void {
    this.replyEnded();
    this.pending = undefined;
  }

  private settle(): void {
    if (this.replyUsage === undefined || this.replyEntry === undefined) return;
    if (!this.byEntry.has(this.replyEntry)) this.byEntry.set(this.replyEntry, this.replyUsage);
  }

  /** Per AI entry index, the usage its call recorded. */
  get usage(): ReadonlyMap<number, UsageStats> {
    return this.byEntry;
  }
}
