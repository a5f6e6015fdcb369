/**
 * Where the gateway's user tokens live: the port both stores implement, the record each keeps per
 * token (no secret: the token's SHA-256 is the key, the record names its user, id and creation
 * time) and the typed errors they raise.
 */
import { z } from 'zod';
import { DenseError } from '../../utils/errors.js';

/** What is listed of a token: never the token itself. */
export interface TokenRecord {
  /** Short random id, e.g. `tok_0a1b2c3d4e`, for listing and revoking. */
  readonly id: string;
  readonly user: string;
  /** ISO 8601, UTC. */
  readonly createdAt: string;
}

export interface CreatedToken {
  /** The secret: shown once to the operator, stored nowhere. */
  readonly token: string;
  readonly record: TokenRecord;
}

/**
 * The users' tokens. Implementations keep only SHA-256 hashes. `revoke` takes a token id (revokes
 * that token) or a user name (revokes all of that user's tokens) and returns what it removed.
 * `userOf` answers undefined for anything not a live token, malformed strings included.
 */
export interface TokenStore {
  create(user: string): Promise<CreatedToken>;
  list(): Promise<readonly TokenRecord[]>;
  revoke(idOrUser: string): Promise<readonly TokenRecord[]>;
  userOf(token: string): Promise<string | undefined>;
  /** Every live token's hash (`tokenHash`) and user, for a cache that starts warm (optional). */
  liveTokens?(): Promise<ReadonlyMap<string, string>>;
}

export const tokenRecordSchema = z.object({
  id: z.string().regex(/^tok_[0-9a-f]{10}$/),
  user: z.string().min(1),
  createdAt: z.string().min(1),
});

export type TokenErrorCode =
  /** The token file is not JSON or not the shape Dense writes. */
  | 'TOKEN_FILE_INVALID'
  /** The token file exists but cannot be read or written. */
  | 'TOKEN_FILE_UNREADABLE'
  /** An entry in the shared store is not the shape Dense writes. */
  | 'TOKEN_STORE_INVALID'
  /** A user name a token cannot be created for. */
  | 'TOKEN_USER_INVALID'
  /** `--state` / `DENSE_STATE` is not a redis:// or rediss:// URL. */
  | 'TOKEN_STATE_URL_INVALID'
  /** The shared store did not answer. */
  | 'TOKEN_STATE_UNREACHABLE';

/** A token store that cannot do what was asked; the message says what to do, in one line. */
export class TokenStoreError extends DenseError {
  constructor(
    readonly code: TokenErrorCode,
    message: string,
    options?: { readonly cause?: unknown },
  ) {
    super(message, options);
  }
}

/** Records oldest first, then by id, so listings are stable. */
export function byCreation(a: TokenRecord, b: TokenRecord): number {
  return a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id);
}

/** The records `revoke(idOrUser)` removes from `records`. */
export function revokedBy<T extends TokenRecord>(records: readonly T[], idOrUser: string): T[] {
  return records.filter((record) => record.id === idOrUser || record.user === idOrUser);
}
