/**
 * The recall archive's files on Redis, so every replica of a gateway writes and reads one archive
 * per user: the same port as the files on disk (`recall/archiveFiles.ts`), so the archive's own
 * layout, bounds and expiry apply unchanged. Under `root` (one per user): the set of conversation
 * names, and per conversation one hash of file bytes and one of `<time>:<bytes>`.
 */
import { RESP_TYPES, type RedisClientType } from 'redis';
import type { ArchiveFiles, ListedEntry } from '../../recall/archiveFiles.js';

/** Sets a file's time, keeping its size, when it exists. */
const TOUCH = `
local v = redis.call('HGET', KEYS[1], ARGV[1])
if not v then return 0 end
local size = string.match(v, ':(%d+)$')
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2] .. ':' .. size)
return 1
`;

function parseMeta(value: string | null | undefined): { at: number; bytes: number } | undefined {
  if (value === null || value === undefined) return undefined;
  const colon = value.indexOf(':');
  return { at: Number(value.slice(0, colon)), bytes: Number(value.slice(colon + 1)) };
}

export function redisArchiveFiles(client: RedisClientType, root: string): ArchiveFiles {
  const buffers = client.withTypeMapping({ [RESP_TYPES.BLOB_STRING]: Buffer });
  const conversationsKey = `${root}:convs`;
  const bytesKey = (conversation: string) => `${root}:c:${conversation}:b`;
  const metaKey = (conversation: string) => `${root}:c:${conversation}:t`;
  return {
    root,
    async conversations() {
      const names = await client.sMembers(conversationsKey);
      return names
        .sort()
        .map((name): ListedEntry => ({ name, kind: 'directory', bytes: 0, at: 0 }));
    },
    async list(conversation) {
      const meta = await client.hGetAll(metaKey(conversation));
      return Object.entries(meta).map(([name, value]): ListedEntry => {
        const parsed = parseMeta(value) ?? { at: 0, bytes: 0 };
        return { name, kind: 'file', bytes: parsed.bytes, at: parsed.at };
      });
    },
    async read(conversation, name) {
      const [bytes, meta] = await Promise.all([
        buffers.hGet(bytesKey(conversation), name),
        client.hGet(metaKey(conversation), name),
      ]);
      const parsed = parseMeta(meta);
      if (bytes === null || bytes === undefined || parsed === undefined) return undefined;
      return { bytes: Buffer.from(bytes), at: parsed.at };
    },
    async write({ conversation, name, bytes, at }) {
      await client
        .multi()
        .hSet(bytesKey(conversation), name, bytes)
        .hSet(metaKey(conversation), name, `${at}:${bytes.length}`)
        .sAdd(conversationsKey, conversation)
        .exec();
    },
    async touch({ conversation, name, at }) {
      await client.eval(TOUCH, { keys: [metaKey(conversation)], arguments: [name, String(at)] });
    },
    async timeOf(conversation, name) {
      return parseMeta(await client.hGet(metaKey(conversation), name))?.at;
    },
    async remove(conversation, name) {
      await client
        .multi()
        .hDel(bytesKey(conversation), name)
        .hDel(metaKey(conversation), name)
        .exec();
      if ((await client.hLen(metaKey(conversation))) === 0)
        await client.sRem(conversationsKey, conversation);
    },
  };
}
