/**
 * A loopback OpenAI Responses upstream scripted as one Codex session: each reply is the next
 * `exec` custom tool call (JavaScript the test supplies) whose output the request does not hold
 * yet, and once every call has its output, the final answer. It keeps the raw body of every
 * `/responses` request so tests can assert on what reached the upstream. Also runs `codex exec`
 * against a base URL (this Codex version ignores OPENAI_BASE_URL: it needs a custom provider).
 */
import path from 'node:path';
import { startRecordingUpstream, type Json, type RecordingUpstream } from './loopbackUpstream.js';
import { runAgentCli, type AgentRun } from './runAgentCli.js';

export interface ExecStep {
  readonly callId: string;
  /** The JavaScript the scripted model sends as the `exec` tool's input. */
  readonly code: string;
}

/** `bodies` are the raw bodies of the `/responses` requests, in order. */
export type CodexUpstream = RecordingUpstream;

/** The usage every reply reports (so the proxy's metering sees a warm cache). */
const USAGE = {
  input_tokens: 9000,
  input_tokens_details: { cached_tokens: 8000 },
  output_tokens: 5,
  output_tokens_details: { reasoning_tokens: 0 },
  total_tokens: 9005,
};

function responseStream(item: Json, turn: number): string {
  const id = `resp_${turn}`;
  const events = [
    { type: 'response.created', response: { id, status: 'in_progress', output: [] } },
    { type: 'response.output_item.done', output_index: 0, item },
    {
      type: 'response.completed',
      response: { id, status: 'completed', output: [item], usage: USAGE },
    },
  ];
  return events.map((event) => `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`).join('');
}

function nextItem(steps: readonly ExecStep[], answer: string, body: Json): Json {
  const input = Array.isArray(body.input) ? (body.input as Json[]) : [];
  const answered = new Set(
    input.filter((item) => item.type === 'custom_tool_call_output').map((item) => item.call_id),
  );
  const step = steps.find((candidate) => !answered.has(candidate.callId));
  if (step !== undefined) {
    return {
      type: 'custom_tool_call',
      id: `ctc_${step.callId}`,
      status: 'completed',
      call_id: step.callId,
      name: 'exec',
      input: step.code,
    };
  }
  return {
    type: 'message',
    id: 'msg_answer',
    role: 'assistant',
    status: 'completed',
    content: [{ type: 'output_text', text: answer, annotations: [] }],
  };
}

export function startCodexUpstream(script: {
  readonly steps: readonly ExecStep[];
  readonly answer: string;
}): Promise<CodexUpstream> {
  return startRecordingUpstream({
    route: '/responses',
    stream: (body, turn) => responseStream(nextItem(script.steps, script.answer, body), turn),
  });
}

export type CodexRun = AgentRun;

/**
 * `codex exec PROMPT` in `cwd` with a private HOME under `base`, talking to `baseUrl` (ending in
 * `/v1`) as a custom Responses provider. `extraArgs` go before the prompt.
 */
export function runCodexExec(input: {
  readonly command: readonly string[];
  readonly base: string;
  readonly cwd: string;
  readonly baseUrl: string;
  readonly prompt: string;
  readonly extraArgs?: readonly string[];
  /** Environment variables besides PATH, HOME, CODEX_HOME and the dummy key (PATH replaces). */
  readonly env?: Readonly<Record<string, string>>;
}): Promise<CodexRun> {
  const provider = `model_providers.dense={name="dense",base_url="${input.baseUrl}",env_key="OPENAI_API_KEY",wire_api="responses"}`;
  const args = [
    'exec',
    '--skip-git-repo-check',
    '-c',
    'model_provider=dense',
    '-c',
    provider,
    ...(input.extraArgs ?? []),
    input.prompt,
  ];
  const home = path.join(input.base, 'home');
  const env = {
    PATH: process.env.PATH,
    HOME: home,
    CODEX_HOME: path.join(home, '.codex'),
    OPENAI_API_KEY: 'dummy',
    ...input.env,
  };
  return runAgentCli({ command: input.command, args, cwd: input.cwd, env, timeoutMs: 120_000 });
}
