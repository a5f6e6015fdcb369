/**
 * A loopback OpenAI Responses upstream scripted as a long Codex session: each main request is
 * answered with the next `exec` call (`cat` of `files[step]`), then, after the last file, the
 * answer. Steps advance per main request (not by the outputs the request holds), so the script
 * survives Codex's own compaction, which drops the earlier calls. Reported usage is the real
 * prompt size (characters / 4, all uncached) × `usageScale`, unless `firstTotal` fixes the first
 * reply's `total_tokens`. Codex's compaction request (its last input item begins with the
 * compaction marker) is answered with `MOCK_SUMMARY` and kept apart. After the last file, when
 * the request names a recall id for `files[0]` (Dense's summary does), the model runs
 * `dense recall <id>` through `exec` before it answers.
 */
import { startLoopbackUpstream, type Json } from './loopbackUpstream.js';

export const CODEX_COMPACTION_MARKER = 'You are performing a CONTEXT CHECKPOINT COMPACTION.';
export const MOCK_SUMMARY = 'MOCK-SUMMARY: the files so far were read.';
export const READ_ID = 'call_dense_read_';
export const RECALL_CALL = 'call_dense_recall';

export interface CodexLongSession {
  /** Files to `cat` (relative to the workspace), one per main request. */
  readonly files: readonly string[];
  readonly answer: string;
  /** Reported usage = prompt characters / 4 × this (default 1). */
  readonly usageScale?: number;
  /** The first reply reports this `total_tokens` (its input = this − 5). */
  readonly firstTotal?: number;
  /** How the scripted model invokes `dense` (default `dense`; Codex's shell resets PATH). */
  readonly denseCommand?: string;
}

export interface CodexRequest {
  readonly raw: string;
  /** The `total_tokens` reported for it. */
  readonly reportedTotal: number;
}

export interface CodexLongUpstream {
  readonly url: string;
  /** Main requests in order (compaction requests excluded). */
  readonly main: readonly CodexRequest[];
  /** Codex's own compaction requests that reached this upstream (raw bodies). */
  readonly compactionRequests: readonly string[];
  close(): Promise<void>;
}

const OUTPUT_TOKENS = 5;

function isCompaction(body: Json): boolean {
  const input = Array.isArray(body.input) ? (body.input as Json[]) : [];
  const content = input.at(-1)?.content;
  const parts = Array.isArray(content) ? (content as { text?: unknown }[]) : [];
  const text = parts[0]?.text;
  return typeof text === 'string' && text.startsWith(CODEX_COMPACTION_MARKER);
}

function readCall(step: number, file: string): Json {
  return {
    type: 'custom_tool_call',
    id: `ctc_${READ_ID}${step}`,
    status: 'completed',
    call_id: `${READ_ID}${step}`,
    name: 'exec',
    input: `text((await tools.exec_command({cmd: "cat ${file}"})).output);`,
  };
}

function escaped(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The recall id a summary line in the request names for the `cat` of `file`. */
function recallIdFor(raw: string, file: string): string | undefined {
  return new RegExp(`cat ${escaped(file)}[^\\]]*recall id (r[0-9a-f]{10})`).exec(raw)?.[1];
}

/** After the last file: `dense recall` of the first file's output when named, else the answer. */
function lastStep(session: CodexLongSession, raw: string): Json {
  const id = raw.includes(`"call_id":"${RECALL_CALL}"`)
    ? undefined
    : recallIdFor(raw, session.files[0] ?? '');
  if (id === undefined) return message(session.answer, 'msg_answer');
  return {
    type: 'custom_tool_call',
    id: `ctc_${RECALL_CALL}`,
    status: 'completed',
    call_id: RECALL_CALL,
    name: 'exec',
    input: `text((await tools.exec_command({cmd: "${session.denseCommand ?? 'dense'} recall ${id}"})).output);`,
  };
}

function message(text: string, id: string): Json {
  return {
    type: 'message',
    id,
    role: 'assistant',
    status: 'completed',
    content: [{ type: 'output_text', text, annotations: [] }],
  };
}

function stream(item: Json, turn: number, total: number): string {
  const id = `resp_${turn}`;
  const usage = {
    input_tokens: total - OUTPUT_TOKENS,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: OUTPUT_TOKENS,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: total,
  };
  const events = [
    { type: 'response.created', response: { id, status: 'in_progress', output: [] } },
    { type: 'response.output_item.done', output_index: 0, item },
    { type: 'response.completed', response: { id, status: 'completed', output: [item], usage } },
  ];
  return events.map((event) => `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`).join('');
}

export async function startCodexLongUpstream(
  session: CodexLongSession,
): Promise<CodexLongUpstream> {
  const main: CodexRequest[] = [];
  const compactionRequests: string[] = [];
  let turn = 0;
  const server = await startLoopbackUpstream(({ url, raw }, response) => {
    if (!url.endsWith('/responses')) {
      response.writeHead(404);
      response.end('{}');
      return;
    }
    turn++;
    const body = JSON.parse(raw) as Json;
    const scaled = Math.ceil((raw.length / 4) * (session.usageScale ?? 1)) + OUTPUT_TOKENS;
    let item: Json;
    let total = scaled;
    if (isCompaction(body)) {
      compactionRequests.push(raw);
      item = message(MOCK_SUMMARY, `msg_summary_${turn}`);
    } else {
      const step = main.length;
      if (step === 0 && session.firstTotal !== undefined) total = session.firstTotal;
      main.push({ raw, reportedTotal: total });
      const file = session.files[step];
      item = file === undefined ? lastStep(session, raw) : readCall(step, file);
    }
    response.writeHead(200, { 'content-type': 'text/event-stream' });
    response.end(stream(item, turn, total));
  });
  return { ...server, main, compactionRequests };
}
