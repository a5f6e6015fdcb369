/**
 * Where `dense statusline` asks for the proxy's stats: `DENSE_PROXY_URL`, else `ANTHROPIC_BASE_URL`
 * when it names a loopback http address (where `dense proxy` listens; a remote gateway is never
 * asked), else `dense proxy`'s default address.
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
