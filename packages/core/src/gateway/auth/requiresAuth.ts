/**
 * Whether a proxy listening on an address must refuse requests without a Dense token: every
 * address but loopback (127.0.0.0/8, ::1, its IPv4-mapped form, `localhost`). On loopback only
 * the machine's own users reach the proxy, so a token is optional there (still checked and
 * attributed when sent). An address this cannot read counts as reachable by others.
 */
import { isIP } from 'node:net';

function unbracketed(host: string): string {
  const value = host.trim().toLowerCase();
  return value.startsWith('[') && value.endsWith(']') ? value.slice(1, -1) : value;
}

function isLoopbackAddress(host: string): boolean {
  if (host === 'localhost') return true;
  if (isIP(host) === 4) return host.startsWith('127.');
  if (isIP(host) !== 6) return false;
  if (host === '::1' || host === '0:0:0:0:0:0:0:1') return true;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(host)?.[1];
  return mapped?.startsWith('127.') === true;
}

/** True when the proxy listening on `bindHost` refuses unauthenticated requests. */
export function requiresAuth(bindHost: string): boolean {
  return !isLoopbackAddress(unbracketed(bindHost));
}
