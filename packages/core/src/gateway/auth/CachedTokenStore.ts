/**
 * A token store whose answers for live tokens are remembered for a short while, so a gateway on
 * Redis checks a user's token without a round trip on the request's path. Only positive answers
 * are kept (a wrong token is asked again every time), at most `maxEntries`, keyed by the token's
 * hash. An answer past half its `ttlMs` is still given, and the store is asked again beside the
 * request (`refreshes`), so a token in use is never looked up on the path twice; a revoked token
 * stops working within `ttlMs` on every replica (immediately on the replica that revoked it
 * through this store). `prime` fills it with every live token at once (one `HGETALL` on Redis) and
 * forgets the ones the store no longer lists; `keepPrimed` does so every half ttl, so a replica asks
 * nothing on the request path for a token that existed at its last listing, however seldom used.
 */
import type { CreatedToken, TokenRecord, TokenStore } from './TokenStore.js';
import { tokenHash } from './tokenSecret.js';
import { setNewest } from '../../utils/newestFirst.js';

export const DEFAULT_TOKEN_CACHE_MS = 30_000;

export class CachedTokenStore implements TokenStore {
  private readonly inner: TokenStore;
  private readonly ttlMs: number;
  private readonly maxEntries: number;
  private readonly now: () => number;
  private readonly known = new Map<string, { readonly user: string; readonly at: number }>();
  /** Tokens being asked again beside a request, by hash. */
  private readonly refreshing = new Set<string>();
  /** Lookups made beside a request (off its path) to renew an answer past half its ttl. */
  refreshes = 0;
  /** Listings of every live token (`prime`), off the requests' path. */
  listings = 0;
  /** Bumped by each revocation here: a renewal asked before it must not bring a token back. */
  private revocations = 0;

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
    this.revocations++;
    const revoked = await this.inner.revoke(idOrUser);
    this.revocations++;
    this.known.clear();
    return revoked;
  }

  async userOf(token: string): Promise<string | undefined> {
    const key = tokenHash(token);
    const now = this.now();
    const held = this.known.get(key);
    if (held !== undefined && now - held.at < this.ttlMs) {
      if (now - held.at >= this.ttlMs / 2) this.refresh(key, token);
      return held.user;
    }
    this.known.delete(key);
    return this.remember(key, await this.inner.userOf(token), now);
  }

  /**
   * Remembers every live token the store lists, as of now, and forgets a remembered one it no
   * longer lists (revoked elsewhere) unless that was learned after the listing was asked for;
   * nothing when the store cannot list its tokens. Resolves to how many it lists. A revocation
   * here while it runs wins: nothing listed before it is kept.
   */
  async prime(): Promise<number> {
    if (this.inner.liveTokens === undefined) return 0;
    const revocations = this.revocations;
    const asked = this.now();
    this.listings++;
    const live = await this.inner.liveTokens();
    if (revocations !== this.revocations) return 0;
    for (const [hash, held] of this.known) {
      if (!live.has(hash) && held.at <= asked) this.known.delete(hash);
    }
    let primed = 0;
    for (const [hash, user] of live) {
      if (this.known.size >= this.maxEntries && !this.known.has(hash)) break;
      this.known.delete(hash);
      this.remember(hash, user, asked);
      primed++;
    }
    return primed;
  }

  /**
   * Primes now and every half ttl until the returned function is called; a listing that fails is
   * reported to `onError` and tried again at the next tick (answers then expire as without it).
   */
  keepPrimed(onError: (error: unknown) => void): () => void {
    const tick = () => void this.prime().catch(onError);
    tick();
    const timer = setInterval(tick, Math.max(1, Math.floor(this.ttlMs / 2)));
    timer.unref();
    return () => clearInterval(timer);
  }

  /** Asks the store again without holding the request; an error leaves the answer to expire. */
  private refresh(key: string, token: string): void {
    if (this.refreshing.has(key)) return;
    this.refreshing.add(key);
    this.refreshes++;
    const asked = this.now();
    const revocations = this.revocations;
    void this.inner
      .userOf(token)
      .then((user) => {
        if (revocations !== this.revocations) return;
        this.known.delete(key);
        this.remember(key, user, asked);
      })
      .catch(() => undefined)
      .finally(() => this.refreshing.delete(key));
  }

  private remember(key: string, user: string | undefined, at: number): string | undefined {
    if (user === undefined) return undefined;
    setNewest(this.known, key, { user, at }, this.maxEntries);
    return user;
  }
}
