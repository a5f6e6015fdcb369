/**
 * The client's own compaction request, per wire API, answered with Dense's deterministic summary:
 * Claude Code's on Anthropic Messages, Codex's on Responses. No known client sends one over Chat
 * Completions.
 */
import type { WireApi } from '../wireHistory.js';
import { codexCompactionReply } from './codexCompactionReply.js';
import { compactionReply, type CompactionReply } from './compactionReply.js';

/** Dense's reply, or undefined when `body` is not a compaction request this proxy recognizes. */
export function clientCompactionReply(api: WireApi, body: Buffer): CompactionReply | undefined {
  switch (api) {
    case 'anthropic':
      return compactionReply(body);
    case 'openai-responses':
      return codexCompactionReply(body);
    case 'openai-chat':
      return undefined;
  }
}
