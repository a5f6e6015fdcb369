/**
 * What every `TokenStore` must do, as one suite each implementation runs: create/list/revoke round
 * trips, revoked and wrong tokens unknown, and the secret never in the stored bytes (`stored()`
 * returns everything the store wrote).
 */
import { describe, expect, it } from 'vitest';
import type { TokenStore } from '../TokenStore.js';
import { newTokenSecret, tokenHash } from '../tokenSecret.js';

export interface ContractStore {
  readonly store: TokenStore;
  /** Every byte the store keeps, as text (the file, or the Redis hash dumped). */
  stored(): Promise<string>;
}

export function tokenStoreContract(name: string, open: () => Promise<ContractStore>): void {
  describe(`${name} (the TokenStore contract)`, () => {
    it('#36.4 create, list and revoke by id round trip; the listing never shows the token', async () => {
      const { store } = await open();
      const ada = await store.create('ada');
      const bob = await store.create('bob');
      expect(ada.token).toMatch(/^dense_[A-Za-z0-9_-]{43}$/);
      expect(ada.record.user).toBe('ada');
      expect(ada.record.id).toMatch(/^tok_[0-9a-f]{10}$/);
      expect(await store.userOf(ada.token)).toBe('ada');
      expect(await store.userOf(bob.token)).toBe('bob');
      const listed = await store.list();
      expect(listed.map((record) => record.user).sort()).toEqual(['ada', 'bob']);
      expect(JSON.stringify(listed)).not.toContain(ada.token);
      expect(await store.revoke(ada.record.id)).toEqual([ada.record]);
      expect(await store.list()).toEqual([bob.record]);
      expect(await store.revoke(ada.record.id)).toEqual([]);
    });

    it('#36.4 a revoked token is refused; revoking a user revokes all of theirs', async () => {
      const { store } = await open();
      const first = await store.create('carol');
      const second = await store.create('carol');
      const other = await store.create('dave');
      expect(await store.userOf(first.token)).toBe('carol');
      const revoked = await store.revoke('carol');
      expect(revoked.map((record) => record.id).sort()).toEqual(
        [first.record.id, second.record.id].sort(),
      );
      expect(await store.userOf(first.token)).toBeUndefined();
      expect(await store.userOf(second.token)).toBeUndefined();
      expect(await store.userOf(other.token)).toBe('dave');
    });

    it('#36.4 a wrong token, a malformed one and an empty one are unknown', async () => {
      const { store } = await open();
      const real = await store.create('erin');
      expect(await store.userOf(newTokenSecret())).toBeUndefined();
      // One character changed (the last one may already be 'A': 1 time in 16 it is).
      const first = real.token['dense_'.length];
      const other = `dense_${first === 'A' ? 'B' : 'A'}${real.token.slice('dense_'.length + 1)}`;
      expect(await store.userOf(other)).toBeUndefined();
      expect(await store.userOf('')).toBeUndefined();
      expect(await store.userOf(`Bearer ${real.token}`)).toBeUndefined();
    });

    it('#36.4 only the hash is stored: the token is nowhere in what the store keeps', async () => {
      const { store, stored } = await open();
      const created = await store.create('frank');
      const text = await stored();
      expect(text).not.toContain(created.token);
      expect(text).not.toContain(created.token.slice('dense_'.length));
      expect(text).toContain(tokenHash(created.token));
      expect(text).toContain('frank');
    });

    it('#36.4 a user name that cannot be shown safely is refused with a typed error', async () => {
      const { store } = await open();
      for (const bad of ['', 'a b', 'ünïcode', '-dash', 'tok_0123456789', 'x'.repeat(65)]) {
        await expect(store.create(bad)).rejects.toMatchObject({ code: 'TOKEN_USER_INVALID' });
      }
      expect(await store.list()).toEqual([]);
    });
  });
}
