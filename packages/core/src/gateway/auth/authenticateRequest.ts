/**
 * Who sends a request to the gateway: reads the Dense token wherever a client can carry it
 * (`x-dense-token`, a `/t/<token>` base URL prefix, or `Authorization: Bearer dense_…` on
 * Anthropic routes, where the provider key travels in `x-api-key`), looks it up in the token
 * store and answers the user and the request target without the prefix, or a refusal to send.
 * On OpenAI routes `Authorization` is the provider key's: a Dense token found there is refused
 * rather than forwarded. A wrong or revoked token is refused even where tokens are optional; a
 * store that fails or does not answer in time refuses too (503): authentication never fails open.
 */
import type * as http from 'node:http';
import { errorMessage } from '../../utils/errors.js';
import type { TokenStore } from './TokenStore.js';
import { DENSE_TOKEN_HEADER, TOKEN_PATH_PREFIX, denseBearer } from './withoutDenseCredentials.js';
import { answeredWithin } from '../../utils/answeredWithin.js';

export const DEFAULT_AUTH_TIMEOUT_MS = 1_000;

export interface AuthenticateInput {
  readonly headers: http.IncomingHttpHeaders;
  /** The request target as received (`request.url`). */
  readonly url: string;
  readonly store: TokenStore;
  /** True where a token is required (`requiresAuth(bindHost)`): no token is then refused. */
  readonly required: boolean;
  /** How long the store may take to answer; past it the request is refused with 503. */
  readonly timeoutMs?: number;
}

export const REFUSAL_REASONS = [
  'missing',
  'unknown',
  'conflicting',
  'authorization-on-openai',
  'store-unavailable',
] as const;
export type RefusalReason = (typeof REFUSAL_REASONS)[number];

/** An Anthropic-style error body; OpenAI clients read the same `error.message`. */
export interface AuthErrorBody {
  readonly type: 'error';
  readonly error: { readonly type: string; readonly message: string };
}

export type AuthOutcome =
  | {
      readonly kind: 'allowed';
      /** Undefined only where tokens are optional and none was sent. */
      readonly user: string | undefined;
      /** The request target with any `/t/<token>` prefix removed: route and forward this. */
      readonly url: string;
    }
  | {
      readonly kind: 'refused';
      readonly status: 401 | 503;
      readonly reason: RefusalReason;
      readonly body: AuthErrorBody;
      /** Why the store failed, for the log (`store-unavailable` only; never holds a token). */
      readonly detail?: string;
    };

const HOW_TO_SEND =
  "send it in the 'x-dense-token' header (Claude Code: ANTHROPIC_CUSTOM_HEADERS='x-dense-token: <token>'; Codex: env_http_headers in the model provider; Qwen Code: customHeaders in generationConfig) or in the base URL as http://<gateway>/t/<token>";

const MESSAGES: Record<RefusalReason, string> = {
  missing: `this gateway needs a Dense token: ${HOW_TO_SEND}; the gateway's operator creates one with 'dense token create <user>'`,
  unknown: `the Dense token sent is not valid (unknown or revoked): ask the gateway's operator for a new one ('dense token create <user>'), then ${HOW_TO_SEND}`,
  conflicting:
    'the request carries two different Dense tokens (header, base URL path or Authorization): send one',
  'authorization-on-openai':
    "the Authorization header carries a Dense token, but on OpenAI routes it must carry your provider key: send the Dense token in the 'x-dense-token' header or in the base URL as http://<gateway>/t/<token>",
  'store-unavailable': 'the token store did not answer; retry shortly',
};

function refused(reason: RefusalReason, detail?: string): AuthOutcome {
  const unavailable = reason === 'store-unavailable';
  return {
    kind: 'refused',
    ...(detail === undefined ? {} : { detail }),
    status: unavailable ? 503 : 401,
    reason,
    body: {
      type: 'error',
      error: {
        type: unavailable ? 'api_error' : 'authentication_error',
        message: `dense proxy: ${MESSAGES[reason]}`,
      },
    },
  };
}

/** The token in a `/t/<token>` prefix and the target without it; the target as is otherwise. */
export function splitTokenPath(url: string): { token: string | undefined; url: string } {
  if (!url.startsWith(TOKEN_PATH_PREFIX)) return { token: undefined, url };
  const rest = url.slice(TOKEN_PATH_PREFIX.length);
  const end = rest.search(/[/?#]/);
  const token = end === -1 ? rest : rest.slice(0, end);
  const after = end === -1 ? '' : rest.slice(end);
  return { token, url: after.startsWith('/') ? after : `/${after}` };
}

function isAnthropicRequest(headers: http.IncomingHttpHeaders, url: string): boolean {
  const pathname = url.split('?')[0] ?? '';
  return pathname.startsWith('/v1/messages') || headers['anthropic-version'] !== undefined;
}

function headerToken(headers: http.IncomingHttpHeaders): string | undefined {
  const value = headers[DENSE_TOKEN_HEADER];
  const text = Array.isArray(value) ? value.join(', ') : value;
  return text === undefined ? undefined : text.trim();
}

/** The store's answer within `timeoutMs`; a rejection or a late answer is `failed`. */
function userWithin(
  store: TokenStore,
  token: string,
  timeoutMs: number,
): Promise<{ user: string | undefined } | { failed: string }> {
  return answeredWithin(store.userOf(token), timeoutMs).then(
    (user) => ({ user }),
    (error: unknown) => ({ failed: errorMessage(error) }),
  );
}

/**
 * Reads and checks the request's Dense token. Never throws; the store is asked at most once.
 * The caller sends a refusal as it is (`status`, JSON `body`) and otherwise routes `url`.
 */
export async function authenticateRequest(input: AuthenticateInput): Promise<AuthOutcome> {
  const { headers } = input;
  const path = splitTokenPath(input.url);
  const bearer = denseBearer(headers.authorization);
  if (bearer !== undefined && !isAnthropicRequest(headers, path.url)) {
    return refused('authorization-on-openai');
  }
  const sent = [headerToken(headers), path.token, bearer].filter(
    (token): token is string => token !== undefined,
  );
  if (new Set(sent).size > 1) return refused('conflicting');
  const token = sent[0];
  if (token === undefined) {
    return input.required
      ? refused('missing')
      : { kind: 'allowed', user: undefined, url: path.url };
  }
  const answer = await userWithin(input.store, token, input.timeoutMs ?? DEFAULT_AUTH_TIMEOUT_MS);
  if ('failed' in answer) return refused('store-unavailable', answer.failed);
  if (answer.user === undefined) return refused('unknown');
  return { kind: 'allowed', user: answer.user, url: path.url };
}
