/**
 * A token store whose answers for live tokens are remembered for a short while, so a gateway on
 * Redis checks a user's token without a round trip on most requests. Only positive answers are
 * kept (a wrong token is asked again every time), at most `maxEntries`, keyed by the token's hash;
 * a revoked token stops working within `ttlMs` on every replica (immediately on the replica that
 * revoked it through this store).
 */
import { createHash } from 'node:crypto';
import type { CreatedToken, TokenRecord, TokenStore } from './TokenStore.js';

export const DEFAULT_TOKEN_CACHE_MS = 30_000;

export class CachedTokenStore implements TokenStore {
  private readonly inner: TokenStore;
  private readonly ttlMs: number;
  private readonly maxEntries: number;
  private readonly now: () => number;
  private readonly known = new Map<string, { readonly user: string; readonly at: number }>();

  constructor(
    inner: TokenStore,
    options: { ttlMs?: number; maxEntries?: number; now?: () => number } = {},
  ) {
    this.inner = inner;
    this.ttlMs = options.ttlMs ?? DEFAULT_TOKEN_CACHE_MS;
    this.maxEntries = options.maxEntries ?? 10_000;
    this.now = options.now ?? Date.now;
  }

  create(user: string): Promise<CreatedToken> {
    return this.inner.create(user);
  }

  list(): Promise<readonly TokenRecord[]> {
    return this.inner.list();
  }

  async revoke(idOrUser: string): Promise<readonly TokenRecord[]> {
    const revoked = await this.inner.revoke(idOrUser);
    this.known.clear();
    return revoked;
  }

  async userOf(token: string): Promise<string | undefined> {
    const key = createHash('sha256').update(token).digest('base64url');
    const now = this.now();
    const held = this.known.get(key);
    if (held !== undefined && now - held.at < this.ttlMs) return held.user;
    const user = await this.inner.userOf(token);
    this.known.delete(key);
    if (user === undefined) return undefined;
    if (this.known.size >= this.maxEntries) {
      const oldest = this.known.keys().next().value;
      if (oldest !== undefined) this.known.delete(oldest);
    }
    this.known.set(key, { user, at: now });
    return user;
  }
}
