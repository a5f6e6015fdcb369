/**
 * Users of a shared `dense proxy`: their tokens (created, listed and revoked with `dense token`,
 * stored only as hashes, in a file or in Redis), how a request's token is read and checked, and
 * the headers forwarded without it.
 */
export {
  authenticateRequest,
  DEFAULT_AUTH_TIMEOUT_MS,
  REFUSAL_REASONS,
  splitTokenPath,
  type AuthenticateInput,
  type AuthErrorBody,
  type AuthOutcome,
  type RefusalReason,
} from './authenticateRequest.js';
export { FileTokenStore, type FileTokenStoreOptions } from './FileTokenStore.js';
export {
  defaultTokenFile,
  openTokenStore,
  shownStateUrl,
  type OpenedTokenStore,
  type OpenTokenStoreInput,
} from './openTokenStore.js';
export {
  DEFAULT_TOKENS_KEY,
  RedisTokenStore,
  type RedisHashClient,
  type RedisTokenStoreOptions,
} from './RedisTokenStore.js';
export { requiresAuth } from './requiresAuth.js';
export {
  TokenStoreError,
  type CreatedToken,
  type TokenErrorCode,
  type TokenRecord,
  type TokenStore,
} from './TokenStore.js';
export { isTokenId, isUserName, looksLikeToken, TOKEN_PREFIX } from './tokenSecret.js';
export {
  DENSE_TOKEN_HEADER,
  TOKEN_PATH_PREFIX,
  withoutDenseCredentials,
} from './withoutDenseCredentials.js';
export { CachedTokenStore, DEFAULT_TOKEN_CACHE_MS } from './CachedTokenStore.js';
