/**
 * The shared token store: one Redis hash (default `dense:tokens`) whose fields are token SHA-256
 * hashes and whose values are the records as JSON, so every replica answers `userOf` with one
 * `HGET`. Takes a client already connected (the official `redis` package); never closes it.
 */
import { errorMessage } from '../../utils/errors.js';
import { issueToken } from './issueToken.js';
import {
  byCreation,
  revokedBy,
  tokenRecordSchema,
  TokenStoreError,
  type CreatedToken,
  type TokenRecord,
  type TokenStore,
} from './TokenStore.js';
import { looksLikeToken, tokenHash } from './tokenSecret.js';

export const DEFAULT_TOKENS_KEY = 'dense:tokens';

/** The hash commands used, as the official client's `createClient()` result has them. */
export interface RedisHashClient {
  hSet(key: string, field: string, value: string): Promise<number>;
  hGet(key: string, field: string): Promise<string | null>;
  hGetAll(key: string): Promise<Record<string, string>>;
  hDel(key: string, fields: string[]): Promise<number>;
}

export interface RedisTokenStoreOptions {
  readonly client: RedisHashClient;
  /** The hash's key (default `dense:tokens`). */
  readonly key?: string;
  readonly now?: () => number;
}

export class RedisTokenStore implements TokenStore {
  private readonly client: RedisHashClient;
  private readonly key: string;
  private readonly now: () => number;

  constructor(options: RedisTokenStoreOptions) {
    this.client = options.client;
    this.key = options.key ?? DEFAULT_TOKENS_KEY;
    this.now = options.now ?? Date.now;
  }

  async create(user: string): Promise<CreatedToken> {
    const issued = issueToken(user, this.now());
    await this.client.hSet(this.key, issued.hash, JSON.stringify(issued.record));
    return { token: issued.token, record: issued.record };
  }

  async list(): Promise<readonly TokenRecord[]> {
    return (await this.entries()).map(([, record]) => record).sort(byCreation);
  }

  async revoke(idOrUser: string): Promise<readonly TokenRecord[]> {
    const entries = await this.entries();
    const revoked = new Set(
      revokedBy(
        entries.map(([, record]) => record),
        idOrUser,
      ),
    );
    const hashes = entries.filter(([, record]) => revoked.has(record)).map(([hash]) => hash);
    if (hashes.length > 0) await this.client.hDel(this.key, hashes);
    return [...revoked].sort(byCreation);
  }

  async userOf(token: string): Promise<string | undefined> {
    if (!looksLikeToken(token)) return undefined;
    const hash = tokenHash(token);
    const value = await this.client.hGet(this.key, hash);
    return value === null ? undefined : this.parse(hash, value).user;
  }

  /** One `HGETALL`: every token's hash and user. */
  async liveTokens(): Promise<ReadonlyMap<string, string>> {
    return new Map((await this.entries()).map(([hash, record]) => [hash, record.user]));
  }

  private async entries(): Promise<[string, TokenRecord][]> {
    const all = await this.client.hGetAll(this.key);
    return Object.entries(all).map(([hash, value]) => [hash, this.parse(hash, value)]);
  }

  private parse(hash: string, value: string): TokenRecord {
    let json: unknown;
    try {
      json = JSON.parse(value);
    } catch (error) {
      throw this.invalid(hash, errorMessage(error));
    }
    const parsed = tokenRecordSchema.safeParse(json);
    if (!parsed.success) throw this.invalid(hash, parsed.error.issues[0]?.message ?? 'bad shape');
    return parsed.data;
  }

  private invalid(hash: string, detail: string): TokenStoreError {
    return new TokenStoreError(
      'TOKEN_STORE_INVALID',
      `the entry ${hash.slice(0, 12)}… of the Redis hash ${this.key} is not a Dense token record (${detail.split('\n')[0] ?? ''}): delete it with HDEL ${this.key} ${hash}`,
    );
  }
}
