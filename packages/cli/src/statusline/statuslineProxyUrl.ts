/**
 * Where `dense statusline` asks for the proxy's stats: `DENSE_PROXY_URL`, else `ANTHROPIC_BASE_URL`
 * when it names a loopback http address (where `dense proxy` listens; a remote gateway is never
 * asked), else `dense proxy`'s default address. On a gateway the user's token goes with it
 * (`statuslineToken`).
 */

/** `dense proxy`'s default port (`DEFAULT_PROXY_PORT`; kept here so the fast path loads no core). */
export const STATUSLINE_DEFAULT_PORT = 8787;

const LOOPBACK_NAMES = new Set(['127.0.0.1', 'localhost', '[::1]']);

function httpUrl(text: string | undefined): URL | undefined {
  if (text === undefined || text.trim() === '') return undefined;
  try {
    const url = new URL(text.trim());
    return url.protocol === 'http:' ? url : undefined;
  } catch {
    return undefined;
  }
}

/** The proxy's base URL (no trailing slash) for this environment. */
export function statuslineProxyUrl(env: NodeJS.ProcessEnv): string {
  const explicit = httpUrl(env.DENSE_PROXY_URL);
  if (explicit !== undefined) return explicit.origin;
  const base = httpUrl(env.ANTHROPIC_BASE_URL);
  if (base !== undefined && LOOPBACK_NAMES.has(base.hostname)) return base.origin;
  return `http://127.0.0.1:${STATUSLINE_DEFAULT_PORT}`;
}

const TOKEN_PATH = /^\/t\/(dense_[^/?#]+)/;

/**
 * The user's Dense token for a gateway: `DENSE_TOKEN`, else the `/t/<token>` prefix of
 * `DENSE_PROXY_URL` or `ANTHROPIC_BASE_URL`, else the `x-dense-token` line of Claude Code's
 * `ANTHROPIC_CUSTOM_HEADERS`; undefined when none is set.
 */
export function statuslineToken(env: NodeJS.ProcessEnv): string | undefined {
  const direct = env.DENSE_TOKEN?.trim();
  if (direct !== undefined && direct !== '') return direct;
  for (const url of [env.DENSE_PROXY_URL, env.ANTHROPIC_BASE_URL]) {
    const token = TOKEN_PATH.exec(httpUrl(url)?.pathname ?? '')?.[1];
    if (token !== undefined) return token;
  }
  for (const line of (env.ANTHROPIC_CUSTOM_HEADERS ?? '').split('\n')) {
    const colon = line.indexOf(':');
    if (colon > 0 && line.slice(0, colon).trim().toLowerCase() === 'x-dense-token')
      return line.slice(colon + 1).trim();
  }
  return undefined;
}
