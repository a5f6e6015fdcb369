/**
 * What the bench's client says about its window: the window itself (`--window`, else what the
 * transcript records) and the headers it sends with every request (its session id; Claude Code's
 * 1M beta once the window is past its default).
 */
import { CLIENT_DEFAULT_WINDOW } from '../../packages/core/src/proxy/budget/workingBudget.js';
import type { ClientApi } from './clientRequests.js';
import {
  benchWindow,
  recordedClientWindow,
  type ClientWindow,
  type WindowedSession,
} from './recordedClientWindow.js';

/** What the window and headers are read from (a session replay's input). */
export interface ClientWindowInput {
  readonly session: WindowedSession & { readonly model?: string | undefined };
  readonly api: ClientApi;
  readonly sessionId: string;
  /** The client's window (tokens); undefined: the recorded one. */
  readonly window?: number | undefined;
}

/** The `anthropic-beta` value with which Claude Code asks for the 1M-token window. */
export const CONTEXT_1M_BETA = 'context-1m-2025-08-07';

/** The model the bench's client names: the recorded one, else a default for its API. */
export function sessionModel(input: ClientWindowInput): string {
  return input.session.model ?? (input.api === 'anthropic' ? 'claude-sonnet-4-6' : 'gpt-5');
}

/** The client's window: `--window` when set, else what the transcript records. */
export function replayWindow(input: ClientWindowInput): ClientWindow {
  return input.window === undefined
    ? recordedClientWindow(input.session, input.api, sessionModel(input))
    : benchWindow(input.api, input.window);
}

/** The headers the client sends: the 1M beta when its window is past Claude Code's default. */
export function clientHeaders(
  input: ClientWindowInput,
  client: ClientWindow = replayWindow(input),
): Record<string, string> {
  const longContext = input.api === 'anthropic' && client.window > CLIENT_DEFAULT_WINDOW;
  return {
    'x-claude-code-session-id': input.sessionId,
    'anthropic-version': '2023-06-01',
    ...(longContext ? { 'anthropic-beta': CONTEXT_1M_BETA } : {}),
  };
}
