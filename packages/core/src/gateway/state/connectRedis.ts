/**
 * A Redis client for the proxy's shared state: commands fail at once while disconnected (never
 * queued behind an outage), it reconnects on its own, and its errors are reported through `log`
 * instead of crashing the process. Resolves once connected, or after `connectTimeoutMs` with the
 * client still reconnecting in the background (requests go out unchanged until it is up).
 */
import { createClient, type RedisClientType } from 'redis';

export class StateUrlError extends Error {
  readonly code = 'DENSE_STATE_URL_INVALID';
}

/** Checks a `--state` value: `redis://` or `rediss://` with a host. */
export function parseStateUrl(value: string): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new StateUrlError(
      `--state '${value}' is not a URL; give redis://host:port (or rediss:// for TLS)`,
    );
  }
  if ((url.protocol !== 'redis:' && url.protocol !== 'rediss:') || url.hostname === '') {
    throw new StateUrlError(
      `--state '${value}' is not a Redis URL; give redis://host:port (or rediss:// for TLS)`,
    );
  }
  return url;
}

export async function connectRedis(
  url: URL,
  options: { readonly connectTimeoutMs?: number; readonly log?: (line: string) => void } = {},
): Promise<RedisClientType> {
  const client: RedisClientType = createClient({
    url: url.toString(),
    disableOfflineQueue: true,
    socket: {
      connectTimeout: options.connectTimeoutMs ?? 2_000,
      reconnectStrategy: (retries: number) => Math.min(50 * (retries + 1), 1_000),
    },
  });
  let reported = false;
  client.on('error', (error: unknown) => {
    if (reported) return;
    reported = true;
    options.log?.(`dense proxy: shared state store ${url.host}: ${String(error)}`);
  });
  client.on('ready', () => {
    reported = false;
  });
  const connecting = client.connect().then(
    () => true,
    () => false,
  );
  const timeout = new Promise<boolean>((resolve) => {
    setTimeout(() => resolve(false), options.connectTimeoutMs ?? 2_000).unref();
  });
  await Promise.race([connecting, timeout]);
  return client;
}
