/**
 * The proxy's recall archive: the exact original text of every tool result the proxy sent as a
 * pointer, kept on disk so `dense recall <id>` and `dense mcp` (other processes) can give it back.
 * One directory per conversation under `dir`; each original is one file named by its recall id,
 * holding the raw UTF-8 bytes, written atomically (temp file + rename). Directories are 0700,
 * files 0600. Bounded per conversation and overall (oldest evicted first) and expiring; a removed
 * entry leaves a small tombstone so a lookup can say it expired or was evicted rather than that
 * it never existed. Tombstones go after one more expiry period (checked when a writer re-reads
 * the directory).
 */
import { createHash } from 'node:crypto';
import { isRecallIdShape } from '../core/compression/recallPointers.js';
import { archiveFiles, type ArchiveFiles, type StoredFile } from './archiveFiles.js';

export interface RecallArchiveOptions {
  /** Root directory (the CLI uses `getDensePaths().recallDir`). */
  readonly dir: string;
  /** The files under `dir`; default: on disk (`archiveFiles`), `memoryArchiveFiles` in memory. */
  readonly files?: ArchiveFiles;
  /** Milliseconds an original is kept after it was written. Default 7 days. */
  readonly ttlMs?: number;
  /** Bytes kept per conversation. Default 32 MiB. */
  readonly maxConversationBytes?: number;
  /** Bytes kept overall. Default 256 MiB. */
  readonly maxTotalBytes?: number;
  /** Milliseconds after which a writer re-reads the directory (other writers' files). Default 1 h. */
  readonly rescanMs?: number;
  readonly now?: () => number;
}

export const DEFAULT_RECALL_TTL_MS = 7 * 24 * 60 * 60_000;
export const DEFAULT_RECALL_CONVERSATION_BYTES = 32 * 1024 * 1024;
export const DEFAULT_RECALL_TOTAL_BYTES = 256 * 1024 * 1024;

/** One original to keep: its recall id and its exact text. */
export interface RecallEntry {
  readonly id: string;
  readonly text: string;
}

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

interface Indexed extends StoredFile {
  readonly conversation: string;
}

export class RecallArchive {
  private readonly files: ArchiveFiles;
  private readonly ttlMs: number;
  private readonly maxConversationBytes: number;
  private readonly maxTotalBytes: number;
  private readonly rescanMs: number;
  private readonly now: () => number;
  /** What this writer knows is on disk, oldest first; re-read every `rescanMs`. */
  private index: Indexed[] | undefined;
  private scannedAt = 0;

  constructor(options: RecallArchiveOptions) {
    this.files = options.files ?? archiveFiles(options.dir);
    this.ttlMs = options.ttlMs ?? DEFAULT_RECALL_TTL_MS;
    this.maxConversationBytes = options.maxConversationBytes ?? DEFAULT_RECALL_CONVERSATION_BYTES;
    this.maxTotalBytes = options.maxTotalBytes ?? DEFAULT_RECALL_TOTAL_BYTES;
    this.rescanMs = options.rescanMs ?? 60 * 60_000;
    this.now = options.now ?? Date.now;
  }

  get dir(): string {
    return this.files.root;
  }

  /**
   * Keeps `entries` for `conversationId` (an id already kept there is refreshed), then removes
   * what has expired and evicts the oldest originals past either bound. May throw on I/O errors
   * (the caller logs them; a pointer then names an id that is not kept).
   */
  async put(conversationId: string, entries: readonly RecallEntry[]): Promise<void> {
    if (entries.length === 0) return;
    const conversation = conversationDirName(conversationId);
    const now = this.now();
    const index = await this.loadIndex(now);
    for (const entry of entries) {
      if (!isRecallIdShape(entry.id)) continue;
      const bytes = Buffer.from(entry.text, 'utf8');
      await this.files.write({ conversation, name: entry.id, bytes, at: now });
      this.forget(index, conversation, entry.id);
      index.push({ conversation, name: entry.id, bytes: bytes.length, at: now });
    }
    await this.sweep(index, now);
  }

  /** The original for `id` from any conversation; never throws for a missing or unreadable one. */
  async lookup(id: string): Promise<ArchiveLookup> {
    if (!isRecallIdShape(id)) return { kind: 'missing', reason: 'malformed' };
    const now = this.now();
    let reason: RecallMissingReason = 'unknown';
    for (const conversation of await this.files.conversations()) {
      const found = await this.files.read(conversation, id);
      if (found !== undefined) {
        if (now - found.at <= this.ttlMs) return { kind: 'found', bytes: found.bytes };
        reason = 'expired';
        continue;
      }
      const tombstone = await this.files.tombstone(conversation, id);
      if (tombstone !== undefined && reason === 'unknown') reason = tombstone;
    }
    return { kind: 'missing', reason };
  }

  private async loadIndex(now: number): Promise<Indexed[]> {
    if (this.index !== undefined && now - this.scannedAt < this.rescanMs) return this.index;
    const index: Indexed[] = [];
    for (const conversation of await this.files.conversations()) {
      for (const file of await this.files.list(conversation)) index.push({ conversation, ...file });
    }
    index.sort((a, b) => a.at - b.at);
    await this.files.dropTombstones(now - this.ttlMs);
    this.index = index;
    this.scannedAt = now;
    return index;
  }

  private forget(index: Indexed[], conversation: string, name: string): void {
    const at = index.findIndex((file) => file.conversation === conversation && file.name === name);
    if (at >= 0) index.splice(at, 1);
  }

  private async sweep(index: Indexed[], now: number): Promise<void> {
    const removals = new Map<Indexed, 'expired' | 'evicted'>();
    const perConversation = new Map<string, number>();
    let total = 0;
    for (const file of index) {
      if (now - file.at > this.ttlMs) removals.set(file, 'expired');
      else {
        total += file.bytes;
        perConversation.set(
          file.conversation,
          (perConversation.get(file.conversation) ?? 0) + file.bytes,
        );
      }
    }
    // Oldest first; the originals just written are the newest and go last, never below one.
    const live = index.filter((file) => !removals.has(file));
    for (const file of live.slice(0, -1)) {
      const own = perConversation.get(file.conversation) ?? 0;
      if (total <= this.maxTotalBytes && own <= this.maxConversationBytes) continue;
      removals.set(file, 'evicted');
      total -= file.bytes;
      perConversation.set(file.conversation, own - file.bytes);
    }
    for (const [file, reason] of removals) {
      await this.files.remove({
        conversation: file.conversation,
        name: file.name,
        reason,
        at: now,
      });
    }
    this.index = index.filter((file) => !removals.has(file));
  }
}
