/** A new token for a user: the secret to show once, its hash to store and its record to list. */
import type { TokenRecord } from './TokenStore.js';
import { TokenStoreError } from './TokenStore.js';
import { isUserName, newTokenId, newTokenSecret, tokenHash } from './tokenSecret.js';

export interface IssuedToken {
  readonly token: string;
  readonly hash: string;
  readonly record: TokenRecord;
}

/** Throws `TOKEN_USER_INVALID` for a name `isUserName` refuses. */
export function issueToken(user: string, now: number): IssuedToken {
  if (!isUserName(user)) {
    throw new TokenStoreError(
      'TOKEN_USER_INVALID',
      `'${user.slice(0, 80)}' is not a user name: use 1 to 64 letters, digits or . _ @ -, starting with a letter or digit`,
    );
  }
  const token = newTokenSecret();
  return {
    token,
    hash: tokenHash(token),
    record: { id: newTokenId(), user, createdAt: new Date(now).toISOString() },
  };
}
