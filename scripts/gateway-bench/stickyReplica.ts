/**
 * Which replica a sticky load balancer sends a conversation to: a hash of its session id (the
 * `x-claude-code-session-id` header) modulo the number of replicas, as haproxy's `balance
 * hdr(x-claude-code-session-id)` does with its default map-based hashing (sdbm): every request of
 * one conversation goes to one replica while the replicas stay up. Pure.
 */

/** sdbm over the UTF-8 bytes of `text`, unsigned 32-bit. */
export function sdbmHash(text: string): number {
  let hash = 0;
  for (const byte of Buffer.from(text, 'utf8'))
    hash = (byte + (hash << 6) + (hash << 16) - hash) >>> 0;
  return hash;
}

/** The replica (0 … `replicas` − 1) every request of `sessionId` goes to. */
export function stickyReplica(sessionId: string, replicas: number): number {
  if (!Number.isInteger(replicas) || replicas < 1)
    throw new RangeError(`stickyReplica needs a whole number of replicas ≥ 1; got ${replicas}`);
  return sdbmHash(sessionId) % replicas;
}

/** How many of `sessionIds` each replica gets. */
export function stickySpread(sessionIds: readonly string[], replicas: number): number[] {
  const counts = Array.from({ length: replicas }, () => 0);
  for (const id of sessionIds)
    counts[stickyReplica(id, replicas)] = (counts[stickyReplica(id, replicas)] ?? 0) + 1;
  return counts;
}
