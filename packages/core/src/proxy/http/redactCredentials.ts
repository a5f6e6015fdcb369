/**
 * What `--record` may write: request headers and query strings with every credential-shaped value
 * replaced by `[redacted]`. A name is credential-shaped when it names a key, token, secret,
 * password, signature, cookie or authorization in any spelling (`api-key`, `x-goog-api-key`,
 * `Proxy-Authorization`, `?key=`, `access_token`, `X-Amz-Signature`, …); a value is when it carries
 * an HTTP auth scheme or a provider key prefix, whatever its name.
 */

export const REDACTED = '[redacted]';

/** Whole names (letters and digits only, lower case) that are credentials though short. */
const CREDENTIAL_NAMES = new Set(['key', 'sig', 'code', 'pass', 'pwd', 'auth']);
/** Parts of a name (letters and digits only, lower case) that make it a credential. */
const CREDENTIAL_PARTS = [
  'apikey',
  'authorization',
  'authentication',
  'token',
  'secret',
  'password',
  'passwd',
  'cookie',
  'credential',
  'signature',
  'privatekey',
  'accesskey',
  'sessionkey',
];
/** Values that are credentials whatever their name: an auth scheme or a provider key prefix. */
const CREDENTIAL_VALUE =
  /^\s*(bearer|basic|digest|token)\s+\S|\b(sk|rk|pk)-[a-z0-9_-]{8,}|\bAIza[0-9A-Za-z_-]{20,}/i;

export function isCredentialName(name: string): boolean {
  const plain = name.toLowerCase().replace(/[^a-z0-9]/g, '');
  return CREDENTIAL_NAMES.has(plain) || CREDENTIAL_PARTS.some((part) => plain.includes(part));
}

function redactValue(name: string, value: string): string {
  return isCredentialName(name) || CREDENTIAL_VALUE.test(value) ? REDACTED : value;
}

/** The headers with every credential-shaped value redacted (multi-valued headers joined). */
export function redactHeaders(
  headers: Readonly<Record<string, string | readonly string[] | undefined>>,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    const text = typeof value === 'string' ? value : value.join(', ');
    out[name] = redactValue(name, text);
  }
  return out;
}

/** The request target with every credential-shaped query value redacted; the path is kept. */
export function redactUrl(requestUrl: string): string {
  const query = requestUrl.indexOf('?');
  if (query === -1) return requestUrl;
  const parts = requestUrl.slice(query + 1).split('&');
  const redacted = parts.map((part) => {
    const equals = part.indexOf('=');
    const rawName = equals === -1 ? part : part.slice(0, equals);
    if (equals === -1) return part;
    let name = rawName;
    let value = part.slice(equals + 1);
    try {
      name = decodeURIComponent(rawName.replace(/\+/g, ' '));
      value = decodeURIComponent(value.replace(/\+/g, ' '));
    } catch {
      // A malformed escape: judge the raw text.
    }
    return redactValue(name, value) === REDACTED ? `${rawName}=${REDACTED}` : part;
  });
  return `${requestUrl.slice(0, query)}?${redacted.join('&')}`;
}
