/**
 * How a Dense token travels on a request, and the request headers with it removed. The token goes
 * in the `x-dense-token` header, in the base URL as a `/t/<token>` path prefix, or (where the
 * provider key is not in `Authorization`) as `Authorization: Bearer dense_…`. A provider key never
 * starts with `dense_`, so removing only such a Bearer value never touches the provider's own key.
 */
import type * as http from 'node:http';
import { TOKEN_PREFIX } from './tokenSecret.js';

export const DENSE_TOKEN_HEADER = 'x-dense-token';
/** The base URL path prefix a token can be carried in: `http://gateway:8787/t/<token>`. */
export const TOKEN_PATH_PREFIX = '/t/';

const DENSE_BEARER = /^\s*bearer\s+(dense_\S*)\s*$/i;

/** The Dense token an `Authorization` value carries, or undefined for anything else. */
export function denseBearer(value: string | readonly string[] | undefined): string | undefined {
  if (typeof value !== 'string') return undefined;
  const token = DENSE_BEARER.exec(value)?.[1];
  return token?.startsWith(TOKEN_PREFIX) === true ? token : undefined;
}

/**
 * The headers to forward upstream: a copy without `x-dense-token` and without an `Authorization`
 * that carries a Dense token. Every other header, the provider's key included, is kept as it is.
 * Called by the forwarder on every request, authenticated or not.
 */
export function withoutDenseCredentials(
  headers: http.IncomingHttpHeaders,
): http.IncomingHttpHeaders {
  const out: http.IncomingHttpHeaders = {};
  for (const [name, value] of Object.entries(headers)) {
    const lower = name.toLowerCase();
    if (lower === DENSE_TOKEN_HEADER) continue;
    if (lower === 'authorization' && denseBearer(value) !== undefined) continue;
    out[name] = value;
  }
  return out;
}
