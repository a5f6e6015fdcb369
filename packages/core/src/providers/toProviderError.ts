/**
 * Turns whatever an SDK threw into a ProviderError. The three SDKs disagree on error shapes, so
 * this reads them by duck typing: an HTTP `status` (+ headers), a connection failure somewhere in
 * the `cause` chain, a JSON parse failure (a garbled stream), or an abort.
 */
import { ProviderError } from './ProviderError.js';
import { retryAfterFromHeaders } from './retryPolicy.js';

export interface ErrorContext {
  readonly provider: string;
  readonly signal?: AbortSignal;
  /** Secrets (API keys) that must never appear in a message. */
  readonly secrets?: readonly string[];
  /** Retry-After captured outside the error object (Gemini's SDK drops response headers). */
  readonly retryAfterMs?: number;
  readonly nowMs?: number;
}

const NETWORK_CODES = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'EPIPE',
  'ETIMEDOUT',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ECONNABORTED',
  'UND_ERR_SOCKET',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'UND_ERR_CLOSED',
]);

const NETWORK_NAMES = new Set(['APIConnectionError', 'APIConnectionTimeoutError']);
const NETWORK_MESSAGES = ['terminated', 'fetch failed', 'other side closed', 'socket hang up'];

export function providerLabel(provider: string): string {
  switch (provider) {
    case 'openai':
      return 'OpenAI-compatible provider';
    case 'anthropic':
      return 'Anthropic provider';
    case 'gemini':
      return 'Gemini provider';
    default:
      return `Provider '${provider}'`;
  }
}

/** Replaces every occurrence of each secret (4+ characters) with `[redacted]`. */
export function redactSecrets(text: string, secrets: readonly string[] = []): string {
  let out = text;
  for (const secret of secrets) {
    if (secret.length >= 4) out = out.split(secret).join('[redacted]');
  }
  return out;
}

export function toProviderError(error: unknown, context: ErrorContext): ProviderError {
  if (error instanceof ProviderError) return error;
  const label = providerLabel(context.provider);
  const make = (
    code: ProviderError['code'],
    message: string,
    extra: { status?: number; retryAfterMs?: number } = {},
  ): ProviderError =>
    new ProviderError({
      code,
      provider: context.provider,
      message: redactSecrets(message, context.secrets),
      ...extra,
      cause: safeCause(error, context.secrets),
    });

  if (context.signal?.aborted === true || isAbortError(error)) {
    return make('PROVIDER_ABORTED', `${label}: the request was aborted.`);
  }
  const status = statusOf(error);
  if (status !== undefined) {
    const retryAfterMs =
      context.retryAfterMs ??
      retryAfterFromHeaders(headersOf(error), context.nowMs ?? Date.now()) ??
      retryDelayFromBody(error);
    const server = serverMessage(error);
    return make(
      'PROVIDER_HTTP_ERROR',
      `${label} request failed with HTTP ${status}: ${server}${statusHint(status)}`,
      { status, ...(retryAfterMs === undefined ? {} : { retryAfterMs }) },
    );
  }
  if (isNetworkError(error)) {
    return make(
      'PROVIDER_NETWORK_ERROR',
      `${label}: the connection failed (${describeChain(error)}). Check that the server is reachable.`,
    );
  }
  if (hasInChain(error, (e) => e instanceof SyntaxError || /JSON/i.test(messageOf(e)))) {
    return make(
      'PROVIDER_PROTOCOL_ERROR',
      `${label}: the server sent a malformed stream chunk (${describeChain(error)}).`,
    );
  }
  return make(
    'PROVIDER_PROTOCOL_ERROR',
    `${label}: unexpected failure while streaming (${describeChain(error)}).`,
  );
}

/** The SDK error as cause, unless a secret shows in its message; then a redacted stand-in. */
function safeCause(error: unknown, secrets: readonly string[] = []): unknown {
  const text = `${messageOf(error)} ${describeChain(error)}`;
  if (!secrets.some((s) => s.length >= 4 && text.includes(s))) return error;
  const stand = new Error(redactSecrets(messageOf(error), secrets));
  stand.name = nameOf(error) ?? 'Error';
  return stand;
}

function statusHint(status: number): string {
  if (status === 401 || status === 403) return ' — check the API key.';
  if (status === 404) return ' — check the model name and base URL.';
  return '';
}

function isAbortError(error: unknown): boolean {
  const name = nameOf(error);
  return name === 'AbortError' || name === 'APIUserAbortError';
}

function isNetworkError(error: unknown): boolean {
  return hasInChain(error, (e) => {
    const code = codeOf(e);
    if (code !== undefined && NETWORK_CODES.has(code)) return true;
    if (NETWORK_NAMES.has(nameOf(e) ?? '')) return true;
    const message = messageOf(e).toLowerCase();
    return NETWORK_MESSAGES.some((m) => message === m || message.startsWith(`${m}:`));
  });
}

function hasInChain(error: unknown, test: (e: unknown) => boolean): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 6 && current != null; depth++) {
    if (test(current)) return true;
    current = field(current, 'cause');
  }
  return false;
}

function describeChain(error: unknown): string {
  const parts: string[] = [];
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current != null; depth++) {
    const text = [codeOf(current), messageOf(current)].filter(Boolean).join(' ');
    if (text !== '' && !parts.includes(text)) parts.push(text);
    current = field(current, 'cause');
  }
  return parts.join(' ← ') || 'no details';
}

function field(value: unknown, key: string): unknown {
  if (value === null || (typeof value !== 'object' && typeof value !== 'function'))
    return undefined;
  return (value as Record<string, unknown>)[key];
}

function nameOf(value: unknown): string | undefined {
  const name = field(value, 'name');
  return typeof name === 'string' ? name : undefined;
}

function codeOf(value: unknown): string | undefined {
  const code = field(value, 'code');
  return typeof code === 'string' ? code : undefined;
}

function messageOf(value: unknown): string {
  if (typeof value === 'string') return value;
  const message = field(value, 'message');
  return typeof message === 'string' ? message : '';
}

function statusOf(error: unknown): number | undefined {
  const status = field(error, 'status');
  return typeof status === 'number' && status >= 400 && status < 600 ? status : undefined;
}

function headersOf(error: unknown): { get(name: string): string | null } | undefined {
  const headers = field(error, 'headers');
  return typeof field(headers, 'get') === 'function'
    ? (headers as { get(name: string): string | null })
    : undefined;
}

/**
 * The server's own words: OpenAI's `error.message`, Anthropic's `error.error.message`, or the
 * JSON body Gemini's SDK puts in `message`; falls back to the SDK's message.
 */
export function serverMessage(error: unknown): string {
  const body = field(error, 'error');
  const nested = field(body, 'error');
  for (const candidate of [field(nested, 'message'), field(body, 'message')]) {
    if (typeof candidate === 'string' && candidate !== '') return candidate;
  }
  const message = messageOf(error);
  const parsed = parseJsonObject(message.slice(Math.max(0, message.indexOf('{'))));
  const fromJson = field(field(parsed, 'error'), 'message');
  if (typeof fromJson === 'string' && fromJson !== '') return fromJson;
  return message.replace(/^\d{3}\s+/, '') || 'no message';
}

/** Gemini puts the wait in the body: `error.details[].retryDelay` such as "12s". */
function retryDelayFromBody(error: unknown): number | undefined {
  const parsed = parseJsonObject(
    messageOf(error).slice(Math.max(0, messageOf(error).indexOf('{'))),
  );
  const details = field(field(parsed, 'error'), 'details');
  if (!Array.isArray(details)) return undefined;
  for (const detail of details) {
    const delay = field(detail, 'retryDelay');
    if (typeof delay === 'string' && /^\d+(\.\d+)?s$/.test(delay)) {
      return Math.round(Number(delay.slice(0, -1)) * 1000);
    }
  }
  return undefined;
}

function parseJsonObject(text: string): unknown {
  if (!text.startsWith('{')) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
