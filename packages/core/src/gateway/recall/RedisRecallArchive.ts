/**
 * A user's recall archive on Redis, written in one round trip per request: each original under its
 * recall id (`…:id:<id>`), expiring `ttlMs` after it was last named, and per conversation a sorted
 * set of its ids by time with the bytes they hold, so a conversation past `maxConversationBytes`
 * drops its oldest originals (never one the same put names). A script does a put atomically, so
 * replicas writing one user's archive at once never double-count. Every replica reads the same
 * originals; another user's archive (another `root`) does not know them.
 */
import type { RedisClientType } from 'redis';
import { RESP_TYPES } from 'redis';
import { isRecallIdShape } from '../../core/compression/recallPointers.js';
import {
  DEFAULT_RECALL_CONVERSATION_BYTES,
  DEFAULT_RECALL_TTL_MS,
  type ArchiveLookup,
  type RecallEntry,
} from '../../recall/RecallArchive.js';

/**
 * KEYS[1] the conversation's id set, KEYS[2] its byte count; ARGV: prefix, ttl ms, bound, now,
 * then id, text pairs. Returns the ids evicted.
 */
const PUT = `
local prefix, ttl, bound, now = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4])
local named = {}
for i = 5, #ARGV, 2 do
  local id, text = ARGV[i], ARGV[i + 1]
  named[id] = true
  local old = redis.call('STRLEN', prefix .. id)
  redis.call('SET', prefix .. id, text, 'PX', ttl)
  redis.call('ZADD', KEYS[1], now, id)
  redis.call('INCRBY', KEYS[2], string.len(text) - old)
end
local evicted = {}
local size = tonumber(redis.call('GET', KEYS[2]) or '0')
if size > bound then
  for _, id in ipairs(redis.call('ZRANGE', KEYS[1], 0, -1)) do
    if size <= bound then break end
    if not named[id] then
      local bytes = redis.call('STRLEN', prefix .. id)
      redis.call('DEL', prefix .. id)
      redis.call('ZREM', KEYS[1], id)
      redis.call('DECRBY', KEYS[2], bytes)
      size = size - bytes
      table.insert(evicted, id)
    end
  end
end
redis.call('PEXPIRE', KEYS[1], ttl)
redis.call('PEXPIRE', KEYS[2], ttl)
return evicted
`;

export interface RedisRecallArchiveOptions {
  readonly client: RedisClientType;
  /** The user's key prefix, e.g. `dense:recall:u:ada`. */
  readonly root: string;
  readonly ttlMs?: number;
  readonly maxConversationBytes?: number;
  readonly now?: () => number;
}

export class RedisRecallArchive {
  private readonly client: RedisClientType;
  private readonly root: string;
  private readonly ttlMs: number;
  private readonly maxConversationBytes: number;
  private readonly now: () => number;

  constructor(options: RedisRecallArchiveOptions) {
    this.client = options.client;
    this.root = options.root;
    this.ttlMs = options.ttlMs ?? DEFAULT_RECALL_TTL_MS;
    this.maxConversationBytes = options.maxConversationBytes ?? DEFAULT_RECALL_CONVERSATION_BYTES;
    this.now = options.now ?? Date.now;
  }

  get dir(): string {
    return `redis:${this.root}`;
  }

  /** Keeps `entries` for `conversationId` (one round trip); throws when Redis does not answer. */
  async put(conversationId: string, entries: readonly RecallEntry[]): Promise<void> {
    const kept = entries.filter((entry) => isRecallIdShape(entry.id));
    if (kept.length === 0) return;
    const conversation = `${this.root}:c:${conversationId}`;
    await this.client.eval(PUT, {
      keys: [`${conversation}:ids`, `${conversation}:bytes`],
      arguments: [
        `${this.root}:id:`,
        String(this.ttlMs),
        String(this.maxConversationBytes),
        String(this.now()),
        ...kept.flatMap((entry) => [entry.id, entry.text]),
      ],
    });
  }

  async lookup(id: string): Promise<ArchiveLookup> {
    if (!isRecallIdShape(id)) return { kind: 'missing', reason: 'malformed' };
    const bytes = await this.client
      .withTypeMapping({ [RESP_TYPES.BLOB_STRING]: Buffer })
      .get(`${this.root}:id:${id}`);
    // Expired, evicted or never kept look alike here: Redis keeps no trace of a key gone.
    return bytes === null ? { kind: 'missing', reason: 'unknown' } : { kind: 'found', bytes };
  }
}
