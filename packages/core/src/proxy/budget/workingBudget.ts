/**
 * The working budget: the prompt size (tokens) the proxy keeps each conversation under, so the
 * client never reaches its own compaction. The one rule the CLI uses too (`autoWorkingBudget`),
 * applied to the window the client assumes for the model and the client's compaction threshold,
 * and never closer to the window than the client's reserve plus room for the next tool result.
 */
import {
  autoWorkingBudget,
  NEXT_RESULT_TOKENS,
} from '../../core/compression/workingBudget/autoWorkingBudget.js';
import { getModelLimits } from '../../providers/modelLimits.js';
import type { AgentClient } from './agentClient.js';
import { qwenCodeWindow } from './qwenCodeWindow.js';

export {
  MAX_WORKING_BUDGET,
  NEXT_RESULT_TOKENS,
  WINDOW_SHARE,
} from '../../core/compression/workingBudget/autoWorkingBudget.js';
/**
 * What Claude Code keeps free below the window before it compacts: up to 20,000 for the summary's
 * output and 13,000 of margin (measured: `claude-sonnet-4-6` compacts at 167,000 of 200,000).
 */
export const CLIENT_RESERVE_TOKENS = 33_000;
/** Claude Code's window for Anthropic models unless the request asks for the 1M-token beta. */
export const CLIENT_DEFAULT_WINDOW = 200_000;
/**
 * Models Claude Code 2.1.331 gives a 1M-token window without the `context-1m` beta (its model
 * table marks them native 1M; measured: none compacted at 400,000 reported tokens, while
 * `claude-sonnet-4-6` compacted at 180,000 and `claude-opus-4-6` at 400,000). A prefix matches the
 * model's later point releases and dated ids (`claude-opus-5` covers `claude-opus-5-5`).
 */
export const CLAUDE_CODE_NATIVE_1M: readonly string[] = [
  'claude-opus-4-7',
  'claude-opus-4-8',
  'claude-opus-5',
  'claude-sonnet-5',
  'claude-haiku-5-5',
  'claude-fable-5',
  'claude-mythos-5',
];
/** The window Claude Code gives a native 1M model. */
export const CLIENT_LONG_WINDOW = 1_000_000;
/** The window assumed for a model the table does not know. */
export const UNKNOWN_MODEL_WINDOW = 128_000;
/**
 * The window Codex 0.169's own model table gives a GPT model Dense's table does not know (272,000
 * for its default `gpt-6.1-sol` and most others; the rest are larger).
 */
export const CODEX_DEFAULT_WINDOW = 272_000;
/**
 * Codex compacts when the last reply's reported `total_tokens` plus its estimate of the items
 * appended since reaches this share of the window (measured: 244,800 of 272,000).
 */
export const CODEX_COMPACT_SHARE = 0.9;

/**
 * Qwen Code compacts when the last reply's reported prompt + output tokens plus its estimate of
 * what was appended since reach the smaller of this share of the window and the window less
 * `CLIENT_RESERVE_TOKENS` (measured: 167,000 for its default 200,000 window).
 */
export const QWEN_CODE_COMPACT_SHARE = 0.85;

export interface WindowInput {
  readonly model: string | undefined;
  /** Whether the request opts into a 1M-token window (Anthropic's `context-1m` beta). */
  readonly longContext: boolean;
  /** The client that sent the request; when unknown, guessed from the model name. */
  readonly client?: AgentClient | undefined;
}

interface ClientRule {
  /** The window (tokens) the client assumes for the request's model. */
  readonly window: (input: WindowInput) => number;
  /** The reported context (tokens) past which the client compacts, for that window. */
  readonly threshold: (window: number) => number;
}

function knownWindow(model: string | undefined): number | undefined {
  return model === undefined ? undefined : getModelLimits(model)?.contextWindow;
}

/**
 * Whether Claude Code treats `model` as 1M tokens without the beta: the bare id (no provider
 * prefix such as `us.anthropic.`, no `[1m]` tag) starts with one of `CLAUDE_CODE_NATIVE_1M`.
 */
export function claudeCodeNative1M(model: string | undefined): boolean {
  if (model === undefined) return false;
  const lower = model.toLowerCase().replace(/\[1m\]$/, '');
  const bare = lower.slice(Math.max(lower.lastIndexOf('/'), lower.lastIndexOf('.')) + 1);
  return CLAUDE_CODE_NATIVE_1M.some((prefix) => bare.startsWith(prefix));
}

/** Each client's own rules (docs/clients.md). */
const CLIENT_RULES: Readonly<Record<AgentClient, ClientRule>> = {
  'claude-code': {
    window: ({ model, longContext }) => {
      if (claudeCodeNative1M(model)) return CLIENT_LONG_WINDOW;
      const window = knownWindow(model) ?? UNKNOWN_MODEL_WINDOW;
      return longContext ? window : Math.min(window, CLIENT_DEFAULT_WINDOW);
    },
    threshold: (window) => window - CLIENT_RESERVE_TOKENS,
  },
  codex: {
    window: ({ model }) => {
      const gpt = model?.toLowerCase().startsWith('gpt-') === true;
      return knownWindow(model) ?? (gpt ? CODEX_DEFAULT_WINDOW : UNKNOWN_MODEL_WINDOW);
    },
    threshold: (window) => Math.floor(window * CODEX_COMPACT_SHARE),
  },
  'qwen-code': {
    window: ({ model }) => qwenCodeWindow(model),
    threshold: (window) => {
      const share = window * QWEN_CODE_COMPACT_SHARE;
      const ceiling = window - CLIENT_RESERVE_TOKENS;
      return Math.floor(ceiling > 0 ? Math.min(share, ceiling) : share);
    },
  },
};

/**
 * The request's client, or the one its model name suggests (Claude models: Claude Code; Qwen
 * models: Qwen Code; others: Codex).
 */
function clientOf(input: WindowInput): AgentClient {
  if (input.client !== undefined) return input.client;
  const model = input.model?.toLowerCase() ?? '';
  if (model.includes('claude')) return 'claude-code';
  const bare = model.slice(model.lastIndexOf('/') + 1);
  return bare.startsWith('qwen') || bare === 'coder-model' ? 'qwen-code' : 'codex';
}

/** The window (tokens) the client works with for this request's model. */
export function clientWindow(input: WindowInput): number {
  return CLIENT_RULES[clientOf(input)].window(input);
}

/**
 * The reported context (tokens: prompt + output) past which the client compacts by itself:
 * Claude Code's window less `CLIENT_RESERVE_TOKENS` (167,000 for a 200k window), Codex's
 * `CODEX_COMPACT_SHARE` of the window (244,800 for 272,000), Qwen Code's smaller of
 * `QWEN_CODE_COMPACT_SHARE` of the window and the window less `CLIENT_RESERVE_TOKENS`.
 */
export function clientCompactionThreshold(input: WindowInput): number {
  const rule = CLIENT_RULES[clientOf(input)];
  return rule.threshold(rule.window(input));
}

/** The same rule for a window known otherwise (e.g. what a transcript records). */
export function clientThresholdFor(client: AgentClient, window: number): number {
  return CLIENT_RULES[client].threshold(window);
}

/**
 * The default working budget for a request: `autoWorkingBudget` for the client's window and
 * threshold, and at most the window less `CLIENT_RESERVE_TOKENS` and room for the next result.
 */
export function defaultWorkingBudget(input: WindowInput): number {
  const rule = CLIENT_RULES[clientOf(input)];
  const window = rule.window(input);
  return Math.max(
    1,
    Math.min(
      autoWorkingBudget(window, rule.threshold(window)),
      window - CLIENT_RESERVE_TOKENS - NEXT_RESULT_TOKENS,
    ),
  );
}
