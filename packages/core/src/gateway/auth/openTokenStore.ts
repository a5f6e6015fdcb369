/**
 * The token store `dense token` and `dense proxy` use: Redis when a state URL is given
 * (`--state redis://…` or env `DENSE_STATE`), else the token file under the Dense data directory.
 * A Redis that does not answer within `connectTimeoutMs` is a typed error, not a hang.
 */
import path from 'node:path';
import { createClient } from 'redis';
import { errorMessage } from '../../utils/errors.js';
import { getDensePaths } from '../../utils/paths.js';
import { parseStateUrl } from '../state/connectRedis.js';
import { FileTokenStore } from './FileTokenStore.js';
import { RedisTokenStore } from './RedisTokenStore.js';
import { TokenStoreError, type TokenStore } from './TokenStore.js';

export const DEFAULT_CONNECT_TIMEOUT_MS = 3_000;

export interface OpenTokenStoreInput {
  /** `--state`; when absent, `env.DENSE_STATE`; when both are absent or empty, the file. */
  readonly state: string | undefined;
  readonly env: NodeJS.ProcessEnv;
  readonly connectTimeoutMs?: number;
}

export interface OpenedTokenStore {
  readonly store: TokenStore;
  /** Where the tokens are, for messages: the file's path or the Redis URL without its password. */
  readonly where: string;
  close(): Promise<void>;
}

/** The embedded token file: `tokens.json` in the `gateway` folder of Dense's data directory. */
export function defaultTokenFile(env: NodeJS.ProcessEnv): string {
  return path.join(path.dirname(getDensePaths(env).recallDir), 'gateway', 'tokens.json');
}

/** A redis:// or rediss:// URL with any password replaced by `***`. */
export function shownStateUrl(url: URL): string {
  const shown = new URL(url.href);
  if (shown.password !== '') shown.password = '***';
  return shown.href;
}

function stateUrl(text: string): URL {
  try {
    return parseStateUrl(text);
  } catch (error) {
    throw new TokenStoreError('TOKEN_STATE_URL_INVALID', errorMessage(error));
  }
}

async function openRedis(url: URL, connectTimeoutMs: number): Promise<OpenedTokenStore> {
  const client = createClient({
    url: url.href,
    socket: { connectTimeout: connectTimeoutMs, reconnectStrategy: false },
    disableOfflineQueue: true,
  });
  // Errors reach the caller through the rejected command; without a listener they would crash.
  client.on('error', () => undefined);
  const where = shownStateUrl(url);
  try {
    await client.connect();
  } catch (error) {
    client.destroy();
    throw new TokenStoreError(
      'TOKEN_STATE_UNREACHABLE',
      `the state store ${where} did not answer (${errorMessage(error)}): check that Redis runs there`,
      { cause: error },
    );
  }
  return {
    store: new RedisTokenStore({ client }),
    where,
    close: async () => {
      await client.close().catch(() => client.destroy());
    },
  };
}

export async function openTokenStore(input: OpenTokenStoreInput): Promise<OpenedTokenStore> {
  const state = input.state ?? input.env.DENSE_STATE;
  if (state === undefined || state.trim() === '') {
    const file = defaultTokenFile(input.env);
    return { store: new FileTokenStore({ file }), where: file, close: () => Promise.resolve() };
  }
  return openRedis(stateUrl(state.trim()), input.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS);
}
