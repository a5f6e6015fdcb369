/**
 * The window and compaction threshold a recorded session's client worked with, read from what its
 * transcript records rather than from Dense's model table (docs/clients.md, "What a transcript
 * says of its window"): Codex's `model_context_window`, a Claude Code model id with the `[1m]`
 * suffix, or reported usage past the 200k window, which only the 1M window allows. Pure.
 */
import type { IContent } from '@dense/core';
import {
  CLIENT_DEFAULT_WINDOW,
  clientThresholdFor,
  clientWindow,
} from '../../packages/core/src/proxy/budget/workingBudget.js';
import type { ClientApi } from './clientRequests.js';

/** Claude Code's long-context window (`[1m]` model ids, the `context-1m` beta). */
export const LONG_CONTEXT_WINDOW = 1_000_000;

/**
 * The share (percent) of its context window that Codex reports as `model_context_window`: its
 * `effective_context_window_percent`, 95 unless the model's metadata says otherwise (258,400 for a
 * 272,000 window).
 */
export const CODEX_EFFECTIVE_WINDOW_PERCENT = 95;

/** Where a session's window came from. */
export const WINDOW_SOURCES = [
  /** Codex's recorded `model_context_window`. */
  'codex-recorded-window',
  /** A Claude Code model id with the `[1m]` suffix in the transcript. */
  'claude-1m-model',
  /** A reported context past Claude Code's 200k window. */
  'recorded-usage',
  /** Nothing recorded: the client's window for the model name (Dense's model table). */
  'model-default',
  /** Set for the whole run (`--window`). */
  'bench-window',
] as const;
export type WindowSource = (typeof WINDOW_SOURCES)[number];

export interface ClientWindow {
  /** The context window the client assumed (tokens). */
  readonly window: number;
  /** The reported context (prompt + output) from which the client compacts by itself. */
  readonly threshold: number;
  readonly source: WindowSource;
}

/**
 * What the window is read from: the entries, the recorded model and, for Codex rollouts, the
 * recorded `model_context_window` (`recordedContextWindow`, set by the Codex importer).
 */
export interface WindowedSession {
  readonly contents: readonly IContent[];
  readonly model?: string;
  readonly recordedContextWindow?: number;
}

/** A Claude Code model id or alias carrying the 1M suffix (`claude-sonnet-4-5[1m]`, `opus[1m]`). */
const LONG_CONTEXT_MODEL = /(?:claude-[a-z0-9.-]+|opus|sonnet|haiku|default)\[1m\]/i;

/** The model id the client sends: Claude Code strips `[1m]` and asks for the window by header. */
export function wireModel(model: string): string {
  return model.replace(/\[1m\]$/i, '');
}

/** The client a bench API stands for (the proxy bench replays Claude Code and Codex). */
const clientOfApi = (api: ClientApi): 'claude-code' | 'codex' =>
  api === 'anthropic' ? 'claude-code' : 'codex';
const thresholdFor = (api: ClientApi, window: number): number =>
  clientThresholdFor(clientOfApi(api), window);

function namesLongContextModel(session: WindowedSession): boolean {
  if (session.model !== undefined && LONG_CONTEXT_MODEL.test(session.model)) return true;
  return session.contents.some((entry) => {
    const model = entry.metadata?.model;
    if (model !== undefined && LONG_CONTEXT_MODEL.test(model)) return true;
    return (
      entry.speaker === 'human' &&
      entry.blocks.some((block) => block.type === 'text' && LONG_CONTEXT_MODEL.test(block.text))
    );
  });
}

/** The largest context (prompt + output) a reply of the session reported. */
function largestReported(contents: readonly IContent[]): number {
  let largest = 0;
  for (const entry of contents) {
    const usage = entry.metadata?.usage;
    if (usage !== undefined)
      largest = Math.max(largest, usage.promptTokens + usage.completionTokens);
  }
  return largest;
}

/** The client's window for a bare model name, as `dense proxy` derives it. */
function modelDefault(api: ClientApi, model: string): ClientWindow {
  const window = clientWindow({ model, longContext: false, client: clientOfApi(api) });
  return { window, threshold: thresholdFor(api, window), source: 'model-default' };
}

/**
 * The window and threshold of a recorded session: for Codex, its recorded `model_context_window`
 * divided by `CODEX_EFFECTIVE_WINDOW_PERCENT` (the client's window) and Codex's threshold share of
 * that; for Claude Code, `LONG_CONTEXT_WINDOW` when the transcript names a `[1m]` model or reports
 * a context past 200k, with Claude Code's threshold for it; otherwise the model's default window.
 * Each threshold is the client's own rule (`clientThresholdFor`), the one the proxy uses.
 */
export function recordedClientWindow(
  session: WindowedSession,
  api: ClientApi,
  model: string,
): ClientWindow {
  if (api === 'openai-responses') {
    const recorded = session.recordedContextWindow;
    if (recorded === undefined || !Number.isFinite(recorded) || recorded <= 0) {
      return modelDefault(api, model);
    }
    const window = Math.round((recorded * 100) / CODEX_EFFECTIVE_WINDOW_PERCENT);
    return { window, threshold: thresholdFor(api, window), source: 'codex-recorded-window' };
  }
  const long: WindowSource | undefined = namesLongContextModel(session)
    ? 'claude-1m-model'
    : largestReported(session.contents) > CLIENT_DEFAULT_WINDOW
      ? 'recorded-usage'
      : undefined;
  if (long === undefined) return modelDefault(api, wireModel(model));
  return {
    window: LONG_CONTEXT_WINDOW,
    threshold: thresholdFor(api, LONG_CONTEXT_WINDOW),
    source: long,
  };
}

/** The window set for the whole run (`--window`): each client's threshold for it. */
export function benchWindow(api: ClientApi, window: number): ClientWindow {
  return { window, threshold: thresholdFor(api, window), source: 'bench-window' };
}
