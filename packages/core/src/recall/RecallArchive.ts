/**
 * The proxy's recall archive: the exact original text of everything the proxy sent as a pointer or
 * summarized, kept on disk so `dense recall <id>` and `dense mcp` (other processes) can give it
 * back. One directory per conversation under `dir`; content is stored once by its hash, and an id
 * names a blob or an ordered list of pieces (`archiveLayout.ts`), so a compaction that covers the
 * same first messages plus new ones writes only the new ones. Directories 0700, files 0600, writes
 * atomic. Bounded per conversation and overall (oldest ids removed first; their content goes when
 * no other id needs it) and expiring (an expired id's content is deleted the same way); a removed
 * id leaves a small tombstone so a lookup can say it expired or was evicted rather than that it
 * never existed. Tombstones go after one more expiry period (checked when a writer re-reads the
 * directory). One writer per archive object: its puts run one at a time, so its account of the
 * bytes holds however many requests overlap.
 */
import { createHash } from 'node:crypto';
import { isRecallIdShape } from '../core/compression/recallPointers.js';
import type { ArchiveIndex, FreedNode } from './ArchiveIndex.js';
import { archiveFiles, type ArchiveFiles } from './archiveFiles.js';
import { REF_SUFFIX, TOMBSTONE_SUFFIX } from './archiveLayout.js';
import { lookupOriginal, scanArchive, type ReadContext } from './archiveReads.js';
import { eachLimited } from './eachLimited.js';
import { planArchiveWrite, type RecallEntry } from './planArchiveWrite.js';

export type { RecallEntry } from './planArchiveWrite.js';

export interface RecallArchiveOptions {
  /** Root directory (the CLI uses `getDensePaths().recallDir`). */
  readonly dir: string;
  /** The files under `dir`; default: on disk (`archiveFiles`), `memoryArchiveFiles` in memory. */
  readonly files?: ArchiveFiles;
  /** Milliseconds an id is kept after it was last named. Default 7 days. */
  readonly ttlMs?: number;
  /** Bytes kept per conversation (stored content: blobs, lists, whole originals). Default 32 MiB. */
  readonly maxConversationBytes?: number;
  /** Bytes kept overall. Default 256 MiB. */
  readonly maxTotalBytes?: number;
  /** Milliseconds after which a writer re-reads the directory (other writers' files). Default 1 h. */
  readonly rescanMs?: number;
  readonly now?: () => number;
  /** Where a skipped file (a directory, link, foreign or corrupt file) is reported. Default: stderr. */
  readonly warn?: (line: string) => void;
}

export const DEFAULT_RECALL_TTL_MS = 7 * 24 * 60 * 60_000;
export const DEFAULT_RECALL_CONVERSATION_BYTES = 32 * 1024 * 1024;
export const DEFAULT_RECALL_TOTAL_BYTES = 256 * 1024 * 1024;
/** Unreferenced content younger than this may belong to another writer's write under way. */
const ORPHAN_GRACE_MS = 10 * 60_000;
const WRITE_CONCURRENCY = 8;
/** A name or content named again is refreshed once older than this share of the TTL. */
const REFRESH_SHARE = 0.01;

export const RECALL_MISSING_REASONS = ['malformed', 'unknown', 'expired', 'evicted'] as const;
export type RecallMissingReason = (typeof RECALL_MISSING_REASONS)[number];

/** What a lookup found: the original's exact bytes, or why there are none. */
export type ArchiveLookup =
  | { readonly kind: 'found'; readonly bytes: Buffer }
  | { readonly kind: 'missing'; readonly reason: RecallMissingReason };

/** One line saying why an id has no original, for the CLI and the MCP tool. */
export function recallMissingMessage(id: string, reason: RecallMissingReason): string {
  switch (reason) {
    case 'malformed':
      return `'${id}' is not a recall id (an 'r' and 10 hex digits, e.g. r0123456789)`;
    case 'unknown':
      return `recall id ${id} is unknown: no original with this id is kept here`;
    case 'expired':
      return `recall id ${id} has expired: its original is no longer kept`;
    case 'evicted':
      return `recall id ${id} was evicted to keep the recall archive within its size bound`;
    default: {
      const never: never = reason;
      return never;
    }
  }
}

/** The directory name of a conversation: a hash, so no client text reaches a path. */
export function conversationDirName(conversationId: string): string {
  return createHash('sha256').update(conversationId).digest('hex').slice(0, 16);
}

export class RecallArchive {
  private readonly files: ArchiveFiles;
  private readonly ttlMs: number;
  private readonly maxConversationBytes: number;
  private readonly maxTotalBytes: number;
  private readonly rescanMs: number;
  private readonly now: () => number;
  private readonly log: (line: string) => void;
  private readonly warned = new Set<string>();
  /** What this writer knows is on disk; re-read every `rescanMs` and after a failed write. */
  private index: ArchiveIndex | undefined;
  private scannedAt = 0;
  /** The puts, one after another. */
  private queue: Promise<void> = Promise.resolve();

  constructor(options: RecallArchiveOptions) {
    this.files = options.files ?? archiveFiles(options.dir);
    this.ttlMs = options.ttlMs ?? DEFAULT_RECALL_TTL_MS;
    this.maxConversationBytes = options.maxConversationBytes ?? DEFAULT_RECALL_CONVERSATION_BYTES;
    this.maxTotalBytes = options.maxTotalBytes ?? DEFAULT_RECALL_TOTAL_BYTES;
    this.rescanMs = options.rescanMs ?? 60 * 60_000;
    this.now = options.now ?? Date.now;
    this.log = options.warn ?? ((line) => process.stderr.write(`${line}\n`));
  }

  get dir(): string {
    return this.files.root;
  }

  /**
   * Keeps `entries` for `conversationId` (an id already kept is named again: refreshed), then
   * removes what has expired and the oldest ids past either bound, never one these entries name.
   * Runs after every earlier put has finished. May throw on I/O errors (the caller logs them; a
   * pointer then names an id that is not kept).
   */
  put(conversationId: string, entries: readonly RecallEntry[]): Promise<void> {
    const run = this.queue.then(() => this.write(conversationId, entries));
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** The original for `id` from any conversation; never throws for a missing or unreadable one. */
  async lookup(id: string): Promise<ArchiveLookup> {
    if (!isRecallIdShape(id)) return { kind: 'missing', reason: 'malformed' };
    return lookupOriginal(this.readContext(this.now()), id);
  }

  private readContext(now: number): ReadContext {
    return {
      files: this.files,
      now,
      ttlMs: this.ttlMs,
      warn: (file, why) => {
        if (this.warned.has(file)) return;
        this.warned.add(file);
        this.log(`dense recall archive: skipped ${file} under ${this.files.root} (${why})`);
      },
    };
  }

  private async write(conversationId: string, entries: readonly RecallEntry[]): Promise<void> {
    const kept = entries.filter((entry) => isRecallIdShape(entry.id));
    if (kept.length === 0) return;
    const conversation = conversationDirName(conversationId);
    const now = this.now();
    try {
      const index = await this.loadIndex(now);
      const freed = await this.store(index, conversation, kept, now);
      const named = new Set(kept.map((entry) => entry.id));
      const keep = (where: string, id: string) => where === conversation && named.has(id);
      await this.sweep(index, now, { keep, freed });
    } catch (error) {
      // What is on disk is no longer known for sure: read it again on the next put.
      this.index = undefined;
      throw error;
    }
  }

  /** Writes what is new for `entries` (content, then lists, then names); returns freed content. */
  private async store(
    index: ArchiveIndex,
    conversation: string,
    entries: readonly RecallEntry[],
    now: number,
  ): Promise<FreedNode[]> {
    const { files } = this;
    const plan = planArchiveWrite(index, conversation, entries);
    await eachLimited([...plan.blobs], WRITE_CONCURRENCY, async ([name, bytes]) => {
      await files.write({ conversation, name, bytes, at: now });
      index.addNode(conversation, name, { bytes: bytes.length, at: now, children: [] });
    });
    // Refreshed so that another writer's sweep sees them in use.
    await eachLimited([...plan.reused], WRITE_CONCURRENCY, async (name) => {
      const node = index.node(conversation, name);
      if (node === undefined || !this.stale(node.at, now)) return;
      await files.touch({ conversation, name, at: now });
      node.at = now;
    });
    for (const list of plan.lists) {
      await files.write({ conversation, name: list.name, bytes: list.bytes, at: now });
      const node = { bytes: list.bytes.length, at: now, children: list.children };
      index.addNode(conversation, list.name, node);
      index.rememberSequence(conversation, list.sequence, list.name);
    }
    for (const [sequence, name] of plan.sequences) {
      index.rememberSequence(conversation, sequence, name);
    }
    const freed: FreedNode[] = [];
    // Held while the names change: one entry's old root may be another's new one.
    const roots = plan.names.map((named) => named.root);
    index.hold(conversation, roots);
    await eachLimited(plan.names, WRITE_CONCURRENCY, async ({ id, root }) => {
      freed.push(...(await this.name(index, { conversation, id, root }, now)));
    });
    freed.push(...index.unhold(conversation, roots));
    return freed;
  }

  private async name(
    index: ArchiveIndex,
    named: { conversation: string; id: string; root: string },
    now: number,
  ): Promise<FreedNode[]> {
    const { conversation, id, root } = named;
    const before = index.name(conversation, id);
    if (before?.root === root) {
      if (!this.stale(before.at, now)) return [];
      await this.files.touch({ conversation, name: id + REF_SUFFIX, at: now });
      before.at = now;
      return [];
    }
    const tombstone = index.account(conversation).tombstones.has(id);
    const bytes = Buffer.from(root, 'utf8');
    await this.files.write({ conversation, name: id + REF_SUFFIX, bytes, at: now });
    // Name records are not counted against the bounds (a few dozen bytes each, one per id).
    const freed = index.setName({ conversation, id, root, bytes: 0, at: now });
    // An original an earlier version kept whole, or a tombstone: the name record replaces it.
    if (before !== undefined && before.root === undefined)
      await this.files.remove(conversation, id);
    if (tombstone) await this.files.remove(conversation, id + TOMBSTONE_SUFFIX);
    return freed;
  }

  /**
   * Whether a time is old enough to refresh when its id or content is named again: a compaction
   * names again every result of the turns it covers, and touching each file every time would cost
   * a call per result per compaction; expiry and eviction ages are exact to 1% of the TTL.
   */
  private stale(at: number, now: number): boolean {
    return now - at > this.ttlMs * REFRESH_SHARE;
  }

  private async loadIndex(now: number): Promise<ArchiveIndex> {
    if (this.index !== undefined && now - this.scannedAt < this.rescanMs) return this.index;
    const { index, stale } = await scanArchive(this.readContext(now));
    for (const { conversation, name } of stale) await this.files.remove(conversation, name);
    // The lists a longer region may extend, as far as they are still stored.
    for (const [conversation, own] of this.index?.conversations ?? []) {
      for (const [sequence, list] of own.sequences) {
        if (index.node(conversation, list) !== undefined) {
          index.rememberSequence(conversation, sequence, list);
        }
      }
    }
    this.index = index;
    this.scannedAt = now;
    return index;
  }

  private async sweep(
    index: ArchiveIndex,
    now: number,
    write: { keep: (conversation: string, id: string) => boolean; freed: readonly FreedNode[] },
  ): Promise<void> {
    const plan = index.sweep({
      now,
      ttlMs: this.ttlMs,
      maxConversationBytes: this.maxConversationBytes,
      maxTotalBytes: this.maxTotalBytes,
      keep: write.keep,
      orphanBefore: now - ORPHAN_GRACE_MS,
    });
    await eachLimited(plan.removed, WRITE_CONCURRENCY, async (removed) => {
      const { conversation, id, reason } = removed;
      const bytes = Buffer.from(reason);
      await this.files.write({ conversation, name: id + TOMBSTONE_SUFFIX, bytes, at: now });
      await this.files.remove(conversation, removed.root === undefined ? id : id + REF_SUFFIX);
    });
    await this.deleteContent([...write.freed, ...plan.freed]);
  }

  /**
   * Deletes content no id needs any more, unless another writer refreshed it since this one knew
   * it (it names it now): then nothing more is deleted and the directory is read again next time.
   */
  private async deleteContent(freed: readonly FreedNode[]): Promise<void> {
    for (const node of freed) {
      const at = await this.files.timeOf(node.conversation, node.name);
      // File times are kept to the microsecond or so: a refresh is a later millisecond.
      if (at !== undefined && at > node.at + 1) {
        this.index = undefined;
        return;
      }
      await this.files.remove(node.conversation, node.name);
    }
  }
}
