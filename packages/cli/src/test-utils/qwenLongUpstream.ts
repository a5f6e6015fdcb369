/**
 * A loopback Chat Completions upstream scripted as a long Qwen Code session: each main request is
 * answered with the next `read_file` call (`files[step]`), then, after the last file, the answer.
 * Steps advance per main request (not by the tool messages the request holds), so the script
 * survives Qwen Code's own compaction, which drops the earlier calls. Reported usage is the real
 * prompt size (characters / 4, all uncached) × `usageScale`, unless `firstPrompt` fixes the first
 * reply's `prompt_tokens`. Qwen Code's compaction request (its last user message asks for the
 * `<state_snapshot>` XML) is answered with `MOCK_SUMMARY` and kept apart; with `overflowAbove`,
 * a main request whose prompt is larger gets 400 "context length exceeded" instead.
 */
import type { ServerResponse } from 'node:http';
import { parseBody, sendJson, startLoopbackUpstream, type Json } from './loopbackUpstream.js';

/** The end of the last user message of Qwen Code 0.24.4's compaction request. */
export const QWEN_COMPACTION_DIRECTIVE = 'Then, produce the <state_snapshot> XML.';
export const MOCK_SUMMARY =
  '<analysis>mock</analysis>\n<state_snapshot>MOCK-SUMMARY: the files so far were read.</state_snapshot>';
export const READ_ID = 'call_dense_read_';

export interface QwenLongSession {
  /** Absolute paths to `read_file`, one per main request. */
  readonly files: readonly string[];
  readonly answer: string;
  /** Reported usage = prompt characters / 4 × this (default 1). */
  readonly usageScale?: number;
  /** The first reply reports this `prompt_tokens`. */
  readonly firstPrompt?: number;
  /** A main request of more characters / 4 than this gets a 400 context-length error. */
  readonly overflowAbove?: number;
}

export interface QwenRequest {
  readonly raw: string;
  /** The `prompt_tokens` reported for it (undefined when it was refused). */
  readonly reportedPrompt: number | undefined;
}

export interface QwenLongUpstream {
  readonly url: string;
  /** Main requests in order (compaction requests excluded). */
  readonly main: readonly QwenRequest[];
  /** Qwen Code's own compaction requests that reached this upstream (raw bodies). */
  readonly compactionRequests: readonly string[];
  close(): Promise<void>;
}

const OUTPUT_TOKENS = 5;

function lastUserText(body: Json): string {
  const messages = Array.isArray(body.messages) ? (body.messages as Json[]) : [];
  const last = messages.at(-1);
  if (last?.role !== 'user') return '';
  const content = last.content;
  if (typeof content === 'string') return content;
  const parts = Array.isArray(content) ? (content as { text?: unknown }[]) : [];
  return parts.map((part) => (typeof part.text === 'string' ? part.text : '')).join('\n');
}

function isCompaction(body: Json): boolean {
  return lastUserText(body).trimEnd().endsWith(QWEN_COMPACTION_DIRECTIVE);
}

function delta(step: number, files: readonly string[], answer: string): Json {
  const file = files[step];
  if (file === undefined) return { role: 'assistant', content: answer };
  const fn = { name: 'read_file', arguments: JSON.stringify({ file_path: file }) };
  return {
    role: 'assistant',
    tool_calls: [{ index: 0, id: `${READ_ID}${step}`, type: 'function', function: fn }],
  };
}

function chatStream(input: { turn: number; delta: Json; prompt: number }): string {
  const chunk = (choices: readonly Json[], extra: Json = {}) => ({
    id: `chatcmpl-${input.turn}`,
    object: 'chat.completion.chunk',
    created: 1_700_000_000 + input.turn,
    model: 'scripted',
    choices,
    ...extra,
  });
  const finish = input.delta.tool_calls === undefined ? 'stop' : 'tool_calls';
  const usage = {
    prompt_tokens: input.prompt,
    completion_tokens: OUTPUT_TOKENS,
    total_tokens: input.prompt + OUTPUT_TOKENS,
    prompt_tokens_details: { cached_tokens: 0 },
  };
  const chunks = [
    chunk([{ index: 0, delta: input.delta, finish_reason: null }]),
    chunk([{ index: 0, delta: {}, finish_reason: finish }]),
    chunk([], { usage }),
  ];
  return `${chunks.map((c) => `data: ${JSON.stringify(c)}\n\n`).join('')}data: [DONE]\n\n`;
}

function sendStream(response: ServerResponse, text: string): void {
  response.writeHead(200, { 'content-type': 'text/event-stream' });
  response.end(text);
}

export async function startQwenLongUpstream(session: QwenLongSession): Promise<QwenLongUpstream> {
  const main: QwenRequest[] = [];
  const compactionRequests: string[] = [];
  const server = await startLoopbackUpstream(({ url, raw }, response) => {
    if (!url.endsWith('/chat/completions')) {
      sendJson(response, 404, {});
      return;
    }
    const body = parseBody(raw);
    const turn = main.length + compactionRequests.length + 1;
    if (isCompaction(body)) {
      compactionRequests.push(raw);
      const summary = { role: 'assistant', content: MOCK_SUMMARY };
      sendStream(response, chatStream({ turn, delta: summary, prompt: 1_000 }));
      return;
    }
    const size = Math.ceil(raw.length / 4);
    if (session.overflowAbove !== undefined && size > session.overflowAbove) {
      main.push({ raw, reportedPrompt: undefined });
      const message = `This model's maximum context length is ${session.overflowAbove} tokens. However, your messages resulted in ${size} tokens.`;
      sendJson(response, 400, {
        error: { message, type: 'invalid_request_error', code: 'context_length_exceeded' },
      });
      return;
    }
    const step = main.filter((request) => request.reportedPrompt !== undefined).length;
    const scaled = Math.ceil(size * (session.usageScale ?? 1));
    const prompt = step === 0 && session.firstPrompt !== undefined ? session.firstPrompt : scaled;
    main.push({ raw, reportedPrompt: prompt });
    sendStream(
      response,
      chatStream({ turn, delta: delta(step, session.files, session.answer), prompt }),
    );
  });
  return { ...server, main, compactionRequests };
}
