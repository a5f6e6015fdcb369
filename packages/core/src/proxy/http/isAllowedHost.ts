/**
 * Which `Host` headers the proxy answers. A web page can make a browser send requests to a
 * loopback port under its own name (DNS rebinding) and read the replies, `/dense/stats` included,
 * so only loopback names are accepted, plus the address given with `--host`. Listening on every
 * interface (`0.0.0.0`, `::`) is a choice to be reachable under any name: every Host is accepted.
 * A request without a Host header (HTTP/1.0, not a browser) is accepted.
 */

const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '::1']);
const EVERY_INTERFACE = new Set(['0.0.0.0', '::', '']);

/** The host name of a Host header value: port and IPv6 brackets removed, lower case. */
export function hostName(header: string): string {
  const value = header.trim().toLowerCase();
  if (value.startsWith('[')) {
    const close = value.indexOf(']');
    return close < 0 ? value.slice(1) : value.slice(1, close);
  }
  const colon = value.lastIndexOf(':');
  return colon === -1 ? value : value.slice(0, colon);
}

function isLoopback(name: string): boolean {
  return (
    LOOPBACK_NAMES.has(name) || name.endsWith('.localhost') || /^127\.\d+\.\d+\.\d+$/.test(name)
  );
}

/** True when a request with this Host header may be answered by a proxy listening on `listenHost`. */
export function isAllowedHost(header: string | undefined, listenHost: string): boolean {
  if (header === undefined) return true;
  const listen = hostName(
    listenHost.includes(':') && !listenHost.startsWith('[') ? `[${listenHost}]` : listenHost,
  );
  if (EVERY_INTERFACE.has(listen)) return true;
  const name = hostName(header);
  return isLoopback(name) || name === listen;
}
