/**
 * A user's recall archive on Redis, written in one round trip per request (or inside a state save's,
 * `scriptedPut`): each original under its
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
 * `keep_originals(keys, args)`: keys[1] the conversation's id set, keys[2] its byte count; args:
 * prefix, ttl ms, bound, now, then id, text pairs. Returns the ids evicted. A Lua function, so a
 * state save can keep a request's originals in its own round trip (`RedisConversations`).
 */
export const KEEP_ORIGINALS_LUA = `
local function keep_originals(keys, args)
  local prefix, ttl, bound, now = args[1], tonumber(args[2]), tonumber(args[3]), tonumber(args[4])
  local named = {}
  for i = 5, #args, 2 do
    local id, text = args[i], args[i + 1]
    named[id] = true
    local old = redis.call('STRLEN', prefix .. id)
    redis.call('SET', prefix .. id, text, 'PX', ttl)
    redis.call('ZADD', keys[1], now, id)
    redis.call('INCRBY', keys[2], string.len(text) - old)
  end
  local evicted = {}
  local size = tonumber(redis.call('GET', keys[2]) or '0')
  if size > bound then
    for _, id in ipairs(redis.call('ZRANGE', keys[1], 0, -1)) do
      if size <= bound then break end
      if not named[id] then
        local bytes = redis.call('STRLEN', prefix .. id)
        redis.call('DEL', prefix .. id)
        redis.call('ZREM', keys[1], id)
        redis.call('DECRBY', keys[2], bytes)
        size = size - bytes
        table.insert(evicted, id)
      end
    end
  end
  redis.call('PEXPIRE', keys[1], ttl)
  redis.call('PEXPIRE', keys[2], ttl)
  return evicted
end
`;

const PUT = `${KEEP_ORIGINALS_LUA}\nreturn keep_originals(KEYS, ARGV)`;

/** A put as `keep_originals`' keys and arguments, for a script on the same client to run. */
export interface ScriptedPut {
  readonly keys: readonly string[];
  readonly arguments: readonly string[];
}

/** An archive whose puts a state save on the same Redis `client` can carry (`RedisRecallArchive`). */
export interface ScriptablePut {
  readonly client: RedisClientType;
  scriptedPut(conversationId: string, entries: readonly RecallEntry[]): ScriptedPut | undefined;
}

export function canScriptPut(archive: object): archive is ScriptablePut {
  return typeof (archive as Partial<ScriptablePut>).scriptedPut === 'function';
}

export interface RedisRecallArchiveOptions {
  readonly client: RedisClientType;
  /** The user's key prefix, e.g. `dense:recall:u:ada`. */
  readonly root: string;
  readonly ttlMs?: number;
  readonly maxConversationBytes?: number;
  readonly now?: () => number;
}

export class RedisRecallArchive implements ScriptablePut {
  readonly client: RedisClientType;
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
    const put = this.scriptedPut(conversationId, entries);
    if (put === undefined) return;
    await this.client.eval(PUT, { keys: [...put.keys], arguments: [...put.arguments] });
  }

  /** The put as a script's keys and arguments; undefined when no entry has a recall id. */
  scriptedPut(conversationId: string, entries: readonly RecallEntry[]): ScriptedPut | undefined {
    const kept = entries.filter((entry) => isRecallIdShape(entry.id));
    if (kept.length === 0) return undefined;
    const conversation = `${this.root}:c:${conversationId}`;
    return {
      keys: [`${conversation}:ids`, `${conversation}:bytes`],
      arguments: [
        `${this.root}:id:`,
        String(this.ttlMs),
        String(this.maxConversationBytes),
        String(this.now()),
        ...kept.flatMap((entry) => [entry.id, entry.text]),
      ],
    };
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
