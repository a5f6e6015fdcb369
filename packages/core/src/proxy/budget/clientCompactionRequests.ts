/**
 * The clients' own compaction requests, one entry per wire API, as data: the bytes every such
 * request holds (a cheap filter before parsing), how the parsed request is recognized, which of
 * its messages the summary covers and how the client wants the summary wrapped. Claude Code's
 * on Anthropic Messages, Codex's on Responses, Qwen Code's on Chat Completions (docs/clients.md).
 * Recognition follows the real requests' whole shape, not a phrase in them: a user who pastes a
 * client's compaction prompt into an ordinary turn is answered by the model. A compaction the user
 * gave instructions for (`/compact <instructions>`) is forwarded: Dense's summary cannot follow them.
 */
import { member, stringMember, type JsonNode } from '../wire/jsonSpans.js';
import type { WireApi } from '../wire/wireHistory.js';
import { openaiLayout } from './compactionLayout.js';

/**
 * Claude Code: the last block of the last user message is a text block, with no cache breakpoint
 * (every ordinary request marks that block), beginning with this…
 */
export const COMPACTION_MARKER = 'CRITICAL: Respond with TEXT ONLY. Do NOT call any tools.';
/** …that names this task (the whole conversation's summary, not a partial one)… */
export const COMPACTION_TASK =
  'Your task is to create a detailed summary of the conversation so far';
/** …and closes the prompt with this reminder (notes on left-out results may follow it). */
export const COMPACTION_REMINDER =
  '\n\nREMINDER: Do NOT call any tools. Respond with plain text only';
/** What Claude Code writes before the instructions typed with `/compact <instructions>`. */
export const COMPACTION_INSTRUCTIONS = '\n\nAdditional Instructions:\n';
/** Codex: the last input item is a user message beginning with this… */
export const CODEX_COMPACTION_MARKER = 'You are performing a CONTEXT CHECKPOINT COMPACTION.';
/** …and the request's turn metadata (`client_metadata`) names it a compaction. */
export const CODEX_TURN_METADATA = 'x-codex-turn-metadata';
/** Qwen Code: the last message is a user message ending with this directive… */
export const QWEN_COMPACTION_DIRECTIVE =
  'First, reason in your <analysis> block. Then, produce the <state_snapshot> XML.';
/** …and its summarizer prompt (in that message, or as the system message) begins with this. */
export const QWEN_COMPACTION_PROMPT =
  'You are the component that summarizes a conversation when its context window is about to overflow.';

export interface ClientCompaction {
  /** Bytes every such request body holds. */
  readonly marker: string;
  /** Whether the parsed request is one. */
  readonly isRequest: (root: JsonNode) => boolean;
  /** Index of the first message the summary covers (the client keeps those before it). */
  readonly firstCovered: (root: JsonNode) => number;
  /**
   * Where the instruction is: a text block of the last message (the rest of that message is
   * covered), or the whole last message.
   */
  readonly instruction: 'last-block' | 'last-message';
  /** The reply's text around Dense's note and summary, as the client reads it. */
  readonly replyText: (note: string, summary: string) => string;
}

/** The request's messages (`messages`, or Responses' `input`). */
function messagesOf(root: JsonNode): readonly JsonNode[] {
  const list = member(root, 'messages') ?? member(root, 'input');
  return list?.kind === 'array' ? list.items : [];
}

/** A message's text: its string content, or its text parts joined. */
export function messageText(message: JsonNode | undefined): string {
  const content = member(message, 'content');
  if (content?.kind === 'string') return content.value;
  if (content?.kind !== 'array') return '';
  return content.items.map((part) => stringMember(part, 'text') ?? '').join('\n');
}

function lastUserMessage(root: JsonNode): JsonNode | undefined {
  const last = messagesOf(root).at(-1);
  return stringMember(last, 'role') === 'user' ? last : undefined;
}

/** Whether `text` is Claude Code's compaction prompt (with or without instructions). */
function isClaudeInstruction(text: string): boolean {
  return (
    text.startsWith(COMPACTION_MARKER) &&
    text.includes(COMPACTION_TASK) &&
    text.includes(COMPACTION_REMINDER)
  );
}

/** Whether a text block is Claude Code's compaction prompt. */
export function isClaudeInstructionBlock(block: JsonNode): boolean {
  const text = stringMember(block, 'type') === 'text' ? stringMember(block, 'text') : undefined;
  return text !== undefined && isClaudeInstruction(text);
}

/** The text of Claude Code's compaction prompt in the request, where the real client puts it. */
function claudeInstruction(root: JsonNode): string | undefined {
  const content = member(lastUserMessage(root), 'content');
  if (content?.kind === 'string')
    return isClaudeInstruction(content.value) ? content.value : undefined;
  const last = content?.kind === 'array' ? content.items.at(-1) : undefined;
  if (last === undefined || member(last, 'cache_control') !== undefined) return undefined;
  return isClaudeInstructionBlock(last) ? stringMember(last, 'text') : undefined;
}

/** Claude Code's compaction request, without instructions typed by the user. */
function isClaudeCodeRequest(root: JsonNode): boolean {
  const instruction = claudeInstruction(root);
  return instruction !== undefined && !instruction.includes(COMPACTION_INSTRUCTIONS);
}

/** What Codex's turn metadata says the request is (`turn`, `compaction`, …). */
function codexRequestKind(root: JsonNode): string | undefined {
  const metadata = stringMember(member(root, 'client_metadata'), CODEX_TURN_METADATA);
  if (metadata === undefined) return undefined;
  try {
    const parsed = JSON.parse(metadata) as unknown;
    const kind =
      typeof parsed === 'object' && parsed !== null
        ? (parsed as Record<string, unknown>).request_kind
        : undefined;
    return typeof kind === 'string' ? kind : undefined;
  } catch {
    return undefined;
  }
}

function isCodexRequest(root: JsonNode): boolean {
  return (
    codexRequestKind(root) === 'compaction' &&
    messageText(lastUserMessage(root)).startsWith(CODEX_COMPACTION_MARKER)
  );
}

/** The text of a message whose content is a string or one text part; else undefined. */
function singleText(message: JsonNode | undefined): string | undefined {
  const content = member(message, 'content');
  if (content?.kind === 'string') return content.value;
  if (content?.kind !== 'array' || content.items.length !== 1) return undefined;
  const [part] = content.items;
  return stringMember(part, 'type') === 'text' ? stringMember(part, 'text') : undefined;
}

/**
 * Qwen Code's, in either of its forms: the last message is a user message of one text that is its
 * summarizer prompt ending with its directive (the request shares the main request's prefix), or
 * the directive alone after the summarizer prompt as the system message (a dedicated summarizer
 * request).
 */
function isQwenCodeRequest(root: JsonNode): boolean {
  const text = singleText(lastUserMessage(root))?.trim();
  if (text?.endsWith(QWEN_COMPACTION_DIRECTIVE) !== true) return false;
  if (text.startsWith(QWEN_COMPACTION_PROMPT)) return true;
  const first = messagesOf(root)[0];
  const system = stringMember(first, 'role') === 'system' ? messageText(first) : '';
  return (
    text === QWEN_COMPACTION_DIRECTIVE && system.trimStart().startsWith(QWEN_COMPACTION_PROMPT)
  );
}

/** The first message after the leading system (and developer) messages. */
function afterSystem(root: JsonNode): number {
  const index = messagesOf(root).findIndex((message) => {
    const role = stringMember(message, 'role');
    return role !== 'system' && role !== 'developer';
  });
  return index === -1 ? 0 : index;
}

/** Per wire API, the one client whose compaction request the proxy answers there. */
export const CLIENT_COMPACTIONS: Readonly<Record<WireApi, ClientCompaction>> = {
  anthropic: {
    marker: COMPACTION_MARKER,
    isRequest: isClaudeCodeRequest,
    firstCovered: () => 0,
    instruction: 'last-block',
    // Claude Code keeps only what is inside <summary>.
    replyText: (note, summary) =>
      `<analysis>\n${note}\n</analysis>\n\n<summary>\n${summary}\n</summary>`,
  },
  'openai-responses': {
    marker: CODEX_COMPACTION_MARKER,
    isRequest: isCodexRequest,
    // Codex keeps its leading items itself.
    firstCovered: (root) => openaiLayout(root, 'openai-responses').start,
    instruction: 'last-message',
    replyText: (note, summary) => `${note}\n\n${summary}`,
  },
  'openai-chat': {
    marker: QWEN_COMPACTION_DIRECTIVE,
    isRequest: isQwenCodeRequest,
    // Qwen Code keeps its system prompt; the summary replaces everything after it.
    firstCovered: afterSystem,
    instruction: 'last-message',
    // Qwen Code drops the <analysis> block and keeps a non-empty <state_snapshot>.
    replyText: (note, summary) =>
      `<analysis>\n${note}\n</analysis>\n\n<state_snapshot>\n${summary}\n</state_snapshot>`,
  },
};
