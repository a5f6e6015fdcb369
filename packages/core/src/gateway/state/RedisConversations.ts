/**
 * Conversation state shared on Redis (or Valkey): one hash per conversation with its version, its
 * snapshot (`conversationSnapshot.ts`) and, apart, its standing compaction with the version that
 * wrote it (most of the bytes, changed only when the conversation compacts again). A load is one
 * round trip that returns the snapshot only when its version differs from the one this replica
 * holds, and the compaction only when this replica does not hold that one; a save is one round
 * trip that writes them only when the version is still the one loaded (optimistic concurrency,
 * checked inside Redis by a script), the compaction only when it changed, and keeps the request's
 * originals for recall in the same script when their archive is on the same client. Every
 * command has a timeout and nothing is queued while disconnected, so a store that is down or slow
 * makes requests go out unchanged instead of waiting.
 */
import { RESP_TYPES, TimeoutError, type RedisClientType } from 'redis';
import type { WireCompactionState } from '../../proxy/budget/compactWire.js';
import {
  conversationSnapshot,
  decodeCompaction,
  decodeSnapshot,
  encodeCompaction,
  encodeSnapshot,
  restoreConversation,
  sameCompaction,
  SnapshotError,
  type ConversationSnapshot,
} from '../../proxy/http/conversationSnapshot.js';
import type { ConversationState, ConversationStore } from '../../proxy/decide/conversationStore.js';
import { answeredWithin } from '../../utils/answeredWithin.js';
import { errorMessage } from '../../utils/errors.js';
import {
  canScriptPut,
  KEEP_ORIGINALS_LUA,
  type ScriptablePut,
  type ScriptedPut,
} from '../recall/RedisRecallArchive.js';
import type {
  ConversationMeters,
  EarlyLoad,
  LoadOutcome,
  OriginalsToKeep,
  SaveOutcome,
  SharedConversations,
} from './SharedConversations.js';

/**
 * KEYS[1] the conversation; ARGV: the version and the compaction's version this replica holds.
 * Returns nil (none), {version} (same as ARGV[1]), {version, snapshot, compaction version} (no
 * compaction, '0', or the one this replica holds) or {version, snapshot, compaction version,
 * compaction}.
 */
const LOAD = `
local f = redis.call('HMGET', KEYS[1], 'v', 'cv')
local v = f[1]
if not v then return false end
if v == ARGV[1] then return {v} end
local cv = f[2] or '0'
local s = redis.call('HGET', KEYS[1], 's')
if cv == '0' or cv == ARGV[2] then return {v, s, cv} end
return {v, s, cv, redis.call('HGET', KEYS[1], 'c')}
`;

/**
 * \`save_state(key, expected, snapshot, standing, compaction, ttl)\`: writes version expected + 1
 * when the stored one is \`expected\` ('0': none). \`standing\`: 'none' (no compaction), 'new'
 * (\`compaction\` is written, its version the new one) or the version of the compaction that stays
 * (else the save conflicts).
 */
const SAVE_STATE_LUA = `
local function save_state(key, expected, snapshot, standing, compaction, ttl)
  local f = redis.call('HMGET', key, 'v', 'cv')
  local v = f[1] or '0'
  if v ~= expected then return 0 end
  local next = tostring(tonumber(v) + 1)
  if standing == 'none' then
    redis.call('HDEL', key, 'c')
    redis.call('HSET', key, 'cv', '0')
  elseif standing == 'new' then
    redis.call('HSET', key, 'c', compaction, 'cv', next)
  elseif (f[2] or '0') ~= standing then
    return 0
  end
  redis.call('HSET', key, 'v', next, 's', snapshot)
  redis.call('PEXPIRE', key, ttl)
  return tonumber(next)
end
`;

/** KEYS[1] the conversation; ARGV: expected version, snapshot, standing, compaction, ttl ms. */
const SAVE = `${SAVE_STATE_LUA}
return save_state(KEYS[1], ARGV[1], ARGV[2], ARGV[3], ARGV[4], ARGV[5])`;

/**
 * A save that first keeps a request's originals (`keep_originals`): KEYS[1] the conversation,
 * KEYS[2..] the archive's keys; ARGV[1] the count n of the archive's arguments, ARGV[2..n+1] them,
 * then expected version, snapshot, standing, compaction, ttl ms.
 */
const SAVE_WITH_ORIGINALS = `${KEEP_ORIGINALS_LUA}${SAVE_STATE_LUA}
local n = tonumber(ARGV[1])
local keys, args = {}, {}
for i = 2, #KEYS do keys[#keys + 1] = KEYS[i] end
for i = 2, n + 1 do args[#args + 1] = ARGV[i] end
keep_originals(keys, args)
return save_state(KEYS[1], ARGV[n + 2], ARGV[n + 3], ARGV[n + 4], ARGV[n + 5], ARGV[n + 6])`;

export const DEFAULT_STATE_TIMEOUT_MS = 250;
export const DEFAULT_STATE_TTL_MS = 6 * 60 * 60_000;

export interface RedisConversationsOptions {
  /** A connected client created with `disableOfflineQueue` (see `connectRedis`). */
  readonly client: RedisClientType;
  /** Per command; past it the request goes out unchanged. */
  readonly timeoutMs?: number;
  /** An idle conversation's state expires after this long. */
  readonly ttlMs?: number;
  readonly prefix?: string;
  /** One line per change of the store's health (never per request). */
  readonly log?: (line: string) => void;
}

const BUFFERS = { [RESP_TYPES.BLOB_STRING]: Buffer } as const;

/** `LOAD`'s reply: nil, [version], [version, snapshot, compaction version(, compaction)]. */
type LoadReply = null | readonly Buffer[];

/** The standing compaction a replica's copy holds, and the version that wrote it (0: none). */
interface HeldCompaction {
  readonly at: number;
  readonly compaction: WireCompactionState | undefined;
}

/**
 * A load's answer: nothing stored (null), the version this replica holds, or a newer copy,
 * decoded as soon as it arrives (an early load's while the request's body is still arriving), or
 * why it does not decode.
 */
type Fetched = null | {
  readonly version: number;
  readonly snapshot?: ConversationSnapshot | SnapshotError;
  readonly compaction?: HeldCompaction;
};

/** A load sent for `local` at version `known`, before its request was read. */
interface RedisEarlyLoad extends EarlyLoad {
  readonly local: ConversationState | undefined;
  readonly known: number;
  readonly reply: Promise<Fetched | undefined>;
}

/** A loaded snapshot with its compaction: sent along, or the one `held` (its version matched). */
function decoded(
  reply: readonly Buffer[],
  held: HeldCompaction | undefined,
): Pick<NonNullable<Fetched>, 'snapshot' | 'compaction'> {
  const [, data, at, stored] = reply;
  try {
    const version = Number(String(at ?? '0'));
    const compaction = stored === undefined ? heldAt(version, held) : decodeCompaction(stored);
    const snapshot = decodeSnapshot(data ?? Buffer.alloc(0), compaction);
    return { snapshot, compaction: { at: version, compaction: snapshot.budget.compaction } };
  } catch (error) {
    return {
      snapshot: error instanceof SnapshotError ? error : new SnapshotError(errorMessage(error)),
    };
  }
}

/** The compaction stored at `version` when none came along: none (0), or the one held. */
function heldAt(
  version: number,
  held: HeldCompaction | undefined,
): WireCompactionState | undefined {
  if (version === 0) return undefined;
  if (held?.at === version) return held.compaction;
  throw new SnapshotError(
    'the stored state names a standing compaction this replica does not hold',
  );
}

function isRedisEarlyLoad(early: EarlyLoad | undefined): early is RedisEarlyLoad {
  return early !== undefined && 'reply' in early && 'known' in early;
}

export class RedisConversations implements SharedConversations {
  private readonly client: RedisClientType;
  private readonly timeoutMs: number;
  private readonly ttlMs: number;
  private readonly prefix: string;
  private readonly log: ((line: string) => void) | undefined;
  /** The shared version each local state object was loaded or saved at. */
  private readonly versions = new WeakMap<ConversationState, number>();
  /** The standing compaction each local state object held when it was loaded or saved. */
  private readonly held = new WeakMap<ConversationState, HeldCompaction>();
  private healthy = true;
  roundTrips = 0;

  constructor(options: RedisConversationsOptions) {
    this.client = options.client;
    this.timeoutMs = options.timeoutMs ?? DEFAULT_STATE_TIMEOUT_MS;
    this.ttlMs = options.ttlMs ?? DEFAULT_STATE_TTL_MS;
    this.prefix = options.prefix ?? 'dense:';
    this.log = options.log;
  }

  private key(id: string): string {
    return `${this.prefix}conv:${id}`;
  }

  private async command<T>(args: readonly (string | Buffer)[]): Promise<T | undefined> {
    this.roundTrips++;
    try {
      // The client's own timeout drops a command not yet written; `answeredWithin` bounds the wait
      // for one written to a server that stays silent.
      const sent = this.client.sendCommand<T>(args, {
        timeout: this.timeoutMs,
        typeMapping: BUFFERS,
      });
      const reply = await answeredWithin(sent, this.timeoutMs);
      if (!this.healthy) this.log?.('dense proxy: the shared state store answers again');
      this.healthy = true;
      return reply;
    } catch (error) {
      if (this.healthy) {
        this.log?.(
          `dense proxy: the shared state store does not answer (${this.whyNot(error)}); requests go out unchanged until it does`,
        );
      }
      this.healthy = false;
      return undefined;
    }
  }

  /** A command's failure in words (the client's timeout error carries none). */
  private whyNot(error: unknown): string {
    return error instanceof TimeoutError
      ? `no answer in ${this.timeoutMs} ms`
      : errorMessage(error);
  }

  /** The shared version `local` was loaded or saved at (0: none). */
  private versionOf(local: ConversationState | undefined): number {
    return local === undefined ? 0 : (this.versions.get(local) ?? 0);
  }

  /** One round trip: nothing stored, the same version as `local`'s, or a newer snapshot. */
  private async fetch(
    id: string,
    local: ConversationState | undefined,
  ): Promise<Fetched | undefined> {
    const known = this.versionOf(local);
    const held = local === undefined ? undefined : this.held.get(local);
    const reply = await this.command<LoadReply>([
      'EVAL',
      LOAD,
      '1',
      this.key(id),
      String(known),
      String(held?.at ?? 0),
    ]);
    if (reply === undefined || reply === null) return reply;
    const version = Number(String(reply[0]));
    return reply.length < 2 ? { version } : { version, ...decoded(reply, held) };
  }

  prefetch(id: string, store: ConversationStore): EarlyLoad {
    const local = store.peek(id);
    const known = this.versionOf(local);
    const early: RedisEarlyLoad = { id, local, known, reply: this.fetch(id, local) };
    return early;
  }

  /**
   * The early load's reply when it is `id`'s, `local` is still what it was sent for and the store
   * answered it; otherwise the load is sent now (not when the store left the early load
   * unanswered: a request waits for a silent store once).
   */
  private async reply(
    id: string,
    local: ConversationState | undefined,
    early: EarlyLoad | undefined,
  ): Promise<Fetched | undefined> {
    const known = this.versionOf(local);
    const usable =
      isRedisEarlyLoad(early) && early.id === id && early.local === local && early.known === known;
    const answered = usable ? await early.reply : undefined;
    if (answered !== undefined) return answered;
    return usable && !this.healthy ? undefined : this.fetch(id, local);
  }

  async load(
    id: string,
    store: ConversationStore,
    meters?: ConversationMeters,
    early?: EarlyLoad,
  ): Promise<LoadOutcome> {
    const local = store.peek(id);
    const fetched = await this.reply(id, local, early);
    if (fetched === undefined) return 'unavailable';
    if (fetched === null) {
      // None stored (new, expired, or lost): every replica starts from nothing alike.
      if (local !== undefined) store.forget(id);
      return 'new';
    }
    const { version, snapshot, compaction } = fetched;
    if (snapshot === undefined) return 'current';
    try {
      if (snapshot instanceof SnapshotError) throw snapshot;
      const state = restoreConversation(id, snapshot);
      this.versions.set(state, version);
      if (compaction !== undefined) this.held.set(state, compaction);
      store.put(state);
      if (snapshot.meter !== undefined) meters?.restoreMeter(id, snapshot.meter);
      return 'restored';
    } catch (error) {
      this.log?.(`dense proxy: ${errorMessage(error)}`);
      return 'unavailable';
    }
  }

  async save(
    id: string,
    store: ConversationStore,
    meters?: ConversationMeters,
    originals?: OriginalsToKeep,
  ): Promise<SaveOutcome> {
    const state = store.peek(id);
    if (state === undefined) return 'saved';
    const expected = this.versions.get(state) ?? 0;
    const data = encodeSnapshot(conversationSnapshot(state, meters?.meterOf(id)));
    const current = state.budget.compaction;
    const standing = this.standingOf(state);
    const compaction = standing === 'new' && current !== undefined ? encodeCompaction(current) : '';
    const saving = [String(expected), data, standing, compaction, String(this.ttlMs)] as const;
    const carried = this.carried(originals);
    const reply =
      carried === undefined
        ? await this.command<number>(['EVAL', SAVE, '1', this.key(id), ...saving])
        : await this.command<number>([
            'EVAL',
            SAVE_WITH_ORIGINALS,
            String(1 + carried.keys.length),
            this.key(id),
            ...carried.keys,
            String(carried.arguments.length),
            ...carried.arguments,
            ...saving,
          ]);
    if (reply === undefined || reply === 0) {
      // The local copy now differs from every stored version: the next load replaces it.
      this.versions.delete(state);
      this.held.delete(state);
      return reply === 0 ? 'conflict' : 'unavailable';
    }
    this.versions.set(state, reply);
    const at = standing === 'none' ? 0 : standing === 'new' ? reply : Number(standing);
    this.held.set(state, { at, compaction: current });
    return 'saved';
  }

  /**
   * What a save of `state` says of its standing compaction: 'none', the version that wrote the
   * one it still holds (not sent again), or 'new' (sent).
   */
  private standingOf(state: ConversationState): string {
    const current = state.budget.compaction;
    if (current === undefined) return 'none';
    const held = this.held.get(state);
    return held !== undefined && held.at > 0 && sameCompaction(held.compaction, current)
      ? String(held.at)
      : 'new';
  }

  carries(originals: OriginalsToKeep): boolean {
    return this.onThisClient(originals.archive);
  }

  private onThisClient(archive: object): archive is ScriptablePut {
    return canScriptPut(archive) && archive.client === this.client;
  }

  /** The originals' put, when their archive is on this client: it rides in the save's script. */
  private carried(originals: OriginalsToKeep | undefined): ScriptedPut | undefined {
    if (originals === undefined || !this.onThisClient(originals.archive)) return undefined;
    return originals.archive.scriptedPut(originals.conversationId, originals.entries);
  }

  async close(): Promise<void> {
    await this.client.close().catch(() => undefined);
  }
}
