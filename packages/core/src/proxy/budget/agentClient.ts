/**
 * Which agent CLI sent a request, as far as the proxy can tell: the wire API it speaks and, on
 * Chat Completions (which several clients speak), its `User-Agent`. The working budget and the
 * client's compaction threshold follow the client's own rules (docs/clients.md).
 */
import type { WireApi } from '../wire/wireHistory.js';

export const AGENT_CLIENTS = ['claude-code', 'codex', 'qwen-code'] as const;
export type AgentClient = (typeof AGENT_CLIENTS)[number];

/** Qwen Code's `User-Agent` begins with this (`QwenCode/0.24.4 (linux; x64)`). */
export const QWEN_CODE_USER_AGENT = 'QwenCode/';

/**
 * The client of a request: Claude Code on Anthropic Messages, Codex on Responses, Qwen Code on
 * Chat Completions when its `User-Agent` says so; undefined for another Chat Completions client.
 */
export function agentClient(input: {
  readonly api: WireApi;
  readonly userAgent: string | undefined;
}): AgentClient | undefined {
  switch (input.api) {
    case 'anthropic':
      return 'claude-code';
    case 'openai-responses':
      return 'codex';
    case 'openai-chat':
      return input.userAgent?.startsWith(QWEN_CODE_USER_AGENT) === true ? 'qwen-code' : undefined;
  }
}
