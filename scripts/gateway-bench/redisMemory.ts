/**
 * What the shared state costs Redis: `used_memory` from `INFO memory`, and per conversation key
 * its `MEMORY USAGE` (exact: `SAMPLES 0`) and the stored snapshot's bytes (`HSTRLEN` of `s` and
 * `c`: the gzipped JSON of `conversationSnapshot.ts` and of the standing compaction stored
 * apart). Read with the bench's own client (not counted as the replicas' round trips).
 */
import type { RedisClientType } from 'redis';

export interface KeyFigures {
  readonly key: string;
  /** Bytes Redis holds for the key (value, key name, overhead). */
  readonly memory: number;
  /** Bytes of the stored snapshot. */
  readonly snapshot: number;
}

export async function usedMemory(client: RedisClientType): Promise<number> {
  const info = await client.sendCommand<string>(['INFO', 'memory']);
  const match = /^used_memory:(\d+)/m.exec(String(info));
  if (match === null) throw new Error('INFO memory has no used_memory line');
  return Number(match[1]);
}

export async function keysMatching(client: RedisClientType, pattern: string): Promise<string[]> {
  const keys: string[] = [];
  let cursor = '0';
  do {
    const reply = await client.sendCommand<[string, string[]]>([
      'SCAN',
      cursor,
      'MATCH',
      pattern,
      'COUNT',
      '1000',
    ]);
    cursor = String(reply[0]);
    keys.push(...reply[1].map(String));
  } while (cursor !== '0');
  return keys;
}

export async function keyFigures(
  client: RedisClientType,
  keys: readonly string[],
): Promise<KeyFigures[]> {
  const out: KeyFigures[] = [];
  for (const key of keys) {
    const memory = await client.sendCommand<number>(['MEMORY', 'USAGE', key, 'SAMPLES', '0']);
    const state = await client.sendCommand<number>(['HSTRLEN', key, 's']);
    const compaction = await client.sendCommand<number>(['HSTRLEN', key, 'c']);
    out.push({ key, memory: Number(memory), snapshot: Number(state) + Number(compaction) });
  }
  return out;
}

/** The summed `MEMORY USAGE` of `keys` (of any type). */
export async function keysMemory(
  client: RedisClientType,
  keys: readonly string[],
): Promise<number> {
  let bytes = 0;
  for (const key of keys)
    bytes += Number(await client.sendCommand<number>(['MEMORY', 'USAGE', key, 'SAMPLES', '0']));
  return bytes;
}
