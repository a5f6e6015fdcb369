/**
 * Qwen Code-shaped Chat Completions requests for the compaction tests: the session of
 * `chatSessionBody` (a system message, the task, rounds of a `read_file`-like call and its
 * result), then Qwen Code's compaction instruction in either of its two forms — appended to the
 * main request (its summarizer prompt and directive in the last user message) or as a dedicated
 * summarizer request (the prompt as the system message, the directive alone last). The prompt
 * text beyond its first sentence is synthetic.
 */
import {
  QWEN_COMPACTION_DIRECTIVE,
  QWEN_COMPACTION_PROMPT,
} from '../budget/clientCompactionRequests.js';
import { chatSessionBody } from './codexSession.js';

type Json = Record<string, unknown>;

const PROMPT = `\n${QWEN_COMPACTION_PROMPT} Summarize the session below as XML.\n\n<state_snapshot>\n  <primary_request_and_intent/>\n</state_snapshot>`;

/** A Qwen Code compaction request over `rounds` rounds. */
export function qwenCompactionRequestBody(
  options: { rounds?: number; form?: 'shared' | 'dedicated'; stream?: boolean } = {},
): string {
  const body = JSON.parse(chatSessionBody(options.rounds ?? 6, 2_000)) as {
    messages: Json[];
  } & Json;
  const instruction =
    options.form === 'dedicated'
      ? QWEN_COMPACTION_DIRECTIVE
      : `${PROMPT}\n\nDo not call tools for this request. ${QWEN_COMPACTION_DIRECTIVE}`;
  const messages = [
    ...body.messages,
    { role: 'user', content: [{ type: 'text', text: instruction }] },
  ];
  if (options.form === 'dedicated') messages[0] = { role: 'system', content: PROMPT };
  return JSON.stringify({
    model: 'qwen3-coder-plus',
    messages,
    max_tokens: 20_000,
    stream: options.stream ?? true,
    ...(options.stream === false ? {} : { stream_options: { include_usage: true } }),
  });
}

/** The same session as an ordinary request whose last user message asks for a summary. */
export function chatRequestAskingForSummary(lastText: string): string {
  const body = JSON.parse(chatSessionBody(4, 2_000)) as { messages: Json[] } & Json;
  return JSON.stringify({
    ...body,
    messages: [...body.messages, { role: 'user', content: lastText }],
  });
}
