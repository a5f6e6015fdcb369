/**
 * The shape of a Dense gateway token and what is kept of it: a token is `dense_` followed by 32
 * random bytes in base64url; only its SHA-256 (hex) is ever stored, next to a short random id that
 * names it for listing and revoking. User names are short printable words so they can be shown,
 * logged and used as keys without escaping.
 */
import { createHash, randomBytes } from 'node:crypto';

export const TOKEN_PREFIX = 'dense_';
const TOKEN_BYTES = 32;
/** `dense_` + 43 base64url characters (32 bytes, unpadded). */
const TOKEN_SHAPE = /^dense_[A-Za-z0-9_-]{43}$/;
/** Token ids: `tok_` + 10 hex characters (5 random bytes). */
const TOKEN_ID_SHAPE = /^tok_[0-9a-f]{10}$/;
const USER_SHAPE = /^[A-Za-z0-9][A-Za-z0-9._@-]{0,63}$/;

/** A new secret token, e.g. `dense_3q2-…` (49 characters). */
export function newTokenSecret(): string {
  return `${TOKEN_PREFIX}${randomBytes(TOKEN_BYTES).toString('base64url')}`;
}

export function newTokenId(): string {
  return `tok_${randomBytes(5).toString('hex')}`;
}

/** The SHA-256 of a token, hex: the only form in which a token is stored or compared. */
export function tokenHash(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** True for a string shaped like a token Dense issues (says nothing of whether it is valid). */
export function looksLikeToken(text: string): boolean {
  return TOKEN_SHAPE.test(text);
}

export function isTokenId(text: string): boolean {
  return TOKEN_ID_SHAPE.test(text);
}

/**
 * True for a user name a token may be created for: 1 to 64 characters of letters, digits and
 * `._@-`, not starting with punctuation, and not shaped like a token id (so `revoke` is never
 * ambiguous).
 */
export function isUserName(text: string): boolean {
  return USER_SHAPE.test(text) && !isTokenId(text);
}
