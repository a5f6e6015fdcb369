import { describe, expect, it, vi } from 'vitest';
import { CachedTokenStore } from './CachedTokenStore.js';
import type { TokenStore } from './TokenStore.js';
import { tokenHash } from './tokenSecret.js';

function countingStore(users: Map<string, string>) {
  const calls = { userOf: 0 };
  const store: TokenStore = {
    create: () => Promise.reject(new Error('unused')),
    list: () => Promise.resolve([]),
    revoke: (user) => {
      for (const [token, name] of users) if (name === user) users.delete(token);
      return Promise.resolve([]);
    },
    userOf: (token) => {
      calls.userOf++;
      return Promise.resolve(users.get(token));
    },
  };
  return { store, calls };
}

describe('CachedTokenStore', () => {
  it('#36.7 a live token is asked of the store once per ttl; a wrong one every time', async () => {
    let now = 0;
    const { store, calls } = countingStore(new Map([['dense_a', 'ana']]));
    const cached = new CachedTokenStore(store, { ttlMs: 1_000, now: () => now });
    for (let i = 0; i < 5; i++) expect(await cached.userOf('dense_a')).toBe('ana');
    expect(calls.userOf).toBe(1);
    for (let i = 0; i < 3; i++) expect(await cached.userOf('dense_x')).toBeUndefined();
    expect(calls.userOf).toBe(4);
    now = 1_000;
    expect(await cached.userOf('dense_a')).toBe('ana');
    expect(calls.userOf).toBe(5);
  });

  it('#36.4 a token revoked elsewhere stops working once its answer is older than the ttl; revoked here, at once', async () => {
    let now = 0;
    const users = new Map([
      ['dense_a', 'ana'],
      ['dense_b', 'bo'],
    ]);
    const { store } = countingStore(users);
    const cached = new CachedTokenStore(store, { ttlMs: 1_000, now: () => now });
    expect(await cached.userOf('dense_a')).toBe('ana');
    expect(await cached.userOf('dense_b')).toBe('bo');
    users.delete('dense_a');
    now = 500;
    expect(await cached.userOf('dense_a')).toBe('ana');
    now = 1_001;
    expect(await cached.userOf('dense_a')).toBeUndefined();
    await cached.revoke('bo');
    expect(await cached.userOf('dense_b')).toBeUndefined();
  });

  it('#36.7 a token in use is looked up on the request path once: past half its ttl it is renewed beside the request', async () => {
    let now = 0;
    const { store, calls } = countingStore(new Map([['dense_a', 'ana']]));
    const cached = new CachedTokenStore(store, { ttlMs: 1_000, now: () => now });
    for (now = 0; now <= 5_000; now += 400) {
      expect(await cached.userOf('dense_a')).toBe('ana');
      await Promise.resolve();
    }
    expect(cached.refreshes).toBeGreaterThan(5);
    expect(calls.userOf - cached.refreshes).toBe(1);
  });

  it('#36.4 a renewal that finds the token revoked refuses it from the next request on, before its ttl', async () => {
    let now = 0;
    const users = new Map([['dense_a', 'ana']]);
    const { store } = countingStore(users);
    const cached = new CachedTokenStore(store, { ttlMs: 1_000, now: () => now });
    expect(await cached.userOf('dense_a')).toBe('ana');
    users.delete('dense_a');
    now = 600;
    expect(await cached.userOf('dense_a')).toBe('ana');
    await new Promise((resolve) => setImmediate(resolve));
    now = 700;
    expect(await cached.userOf('dense_a')).toBeUndefined();
  });

  it('#36.4 a renewal under way when the token is revoked here does not bring it back', async () => {
    let now = 0;
    const users = new Map([['dense_a', 'ana']]);
    let answer: (user: string | undefined) => void = () => undefined;
    const { store } = countingStore(users);
    const slow: TokenStore = {
      ...store,
      userOf: (token) =>
        now < 500
          ? store.userOf(token)
          : new Promise((resolve) => {
              answer = resolve;
            }),
    };
    const cached = new CachedTokenStore(slow, { ttlMs: 1_000, now: () => now });
    expect(await cached.userOf('dense_a')).toBe('ana');
    now = 600;
    expect(await cached.userOf('dense_a')).toBe('ana');
    await cached.revoke('ana');
    answer('ana');
    await new Promise((resolve) => setImmediate(resolve));
    now = 700;
    const refused = cached.userOf('dense_a');
    answer(undefined);
    expect(await refused).toBeUndefined();
  });

  it('#36.7 primed at start: a listed token is answered with no lookup, even on its first request', async () => {
    const users = new Map([
      ['dense_a', 'ana'],
      ['dense_b', 'bo'],
    ]);
    const { store, calls } = countingStore(users);
    let lists = 0;
    const listing: TokenStore = {
      ...store,
      liveTokens: () => {
        lists++;
        return Promise.resolve(
          new Map([...users].map(([token, user]) => [tokenHash(token), user])),
        );
      },
    };
    const cached = new CachedTokenStore(listing, { ttlMs: 1_000, now: () => 0 });
    expect(await cached.prime()).toBe(2);
    expect(await cached.userOf('dense_a')).toBe('ana');
    expect(await cached.userOf('dense_b')).toBe('bo');
    expect(calls.userOf).toBe(0);
    expect(lists).toBe(1);
    // A token the listing did not hold is asked as before.
    expect(await cached.userOf('dense_x')).toBeUndefined();
    expect(calls.userOf).toBe(1);
  });

  it('#36.4 a revocation while priming wins: nothing listed before it is kept', async () => {
    const users = new Map([['dense_a', 'ana']]);
    const { store, calls } = countingStore(users);
    let release: () => void = () => undefined;
    const listing: TokenStore = {
      ...store,
      liveTokens: async () => {
        const listed = new Map([[tokenHash('dense_a'), 'ana']]);
        await new Promise<void>((resolve) => (release = resolve));
        return listed;
      },
    };
    const cached = new CachedTokenStore(listing, { ttlMs: 1_000, now: () => 0 });
    const priming = cached.prime();
    await cached.revoke('ana');
    release();
    expect(await priming).toBe(0);
    expect(await cached.userOf('dense_a')).toBeUndefined();
    expect(calls.userOf).toBe(1);
  });

  it('#36.7 a store that cannot list its tokens primes nothing', async () => {
    const { store } = countingStore(new Map([['dense_a', 'ana']]));
    expect(await new CachedTokenStore(store).prime()).toBe(0);
  });

  it('#36.7 kept primed: every half ttl the listing renews each token and forgets one revoked elsewhere', async () => {
    vi.useFakeTimers();
    try {
      let now = 0;
      const users = new Map([
        ['dense_a', 'ana'],
        ['dense_b', 'bo'],
      ]);
      const { store, calls } = countingStore(users);
      const listing: TokenStore = {
        ...store,
        liveTokens: () =>
          Promise.resolve(new Map([...users].map(([token, user]) => [tokenHash(token), user]))),
      };
      const cached = new CachedTokenStore(listing, { ttlMs: 1_000, now: () => now });
      const stop = cached.keepPrimed(() => undefined);
      await vi.advanceTimersByTimeAsync(0);
      // Never used for far longer than the ttl, still answered with no lookup.
      for (now = 0; now <= 5_000; now += 500) await vi.advanceTimersByTimeAsync(500);
      expect(await cached.userOf('dense_a')).toBe('ana');
      // No lookup on the path (a renewal beside the request may run).
      expect(calls.userOf - cached.refreshes).toBe(0);
      // Revoked on another replica: gone at the next listing, before its ttl would end.
      users.delete('dense_b');
      expect(await cached.userOf('dense_b')).toBe('bo');
      now += 500;
      await vi.advanceTimersByTimeAsync(500);
      expect(await cached.userOf('dense_b')).toBeUndefined();
      expect(cached.listings).toBeGreaterThanOrEqual(12);
      stop();
      const listings = cached.listings;
      await vi.advanceTimersByTimeAsync(5_000);
      expect(cached.listings).toBe(listings);
    } finally {
      vi.useRealTimers();
    }
  });
});
