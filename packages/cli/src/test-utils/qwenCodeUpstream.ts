/**
 * A loopback OpenAI Chat Completions upstream scripted as one tool-calling session: each reply
 * streams the next function call whose `tool` message the request does not hold yet, and once
 * every call has its result, the final answer. It keeps the raw body of every
 * `/chat/completions` request so tests can assert on what reached the upstream. Also runs Qwen
 * Code headless (`qwen PROMPT`) against a base URL, with a private HOME whose settings turn off
 * what would leave the loopback or add requests (usage statistics, update checks, the managed
 * memory subagent that runs after each answer).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { startRecordingUpstream, type Json, type RecordingUpstream } from './loopbackUpstream.js';
import { runAgentCli, type AgentRun } from './runAgentCli.js';

export interface ChatToolStep {
  readonly callId: string;
  readonly name: string;
  readonly arguments: Readonly<Record<string, unknown>>;
}

/** `bodies` are the raw bodies of the `/chat/completions` requests, in order. */
export type ChatUpstream = RecordingUpstream;

/** The usage every reply reports (so the proxy's metering sees a warm cache). */
const USAGE = {
  prompt_tokens: 9000,
  completion_tokens: 5,
  total_tokens: 9005,
  prompt_tokens_details: { cached_tokens: 8000 },
};

function delta(step: ChatToolStep | undefined, answer: string): Json {
  if (step === undefined) return { role: 'assistant', content: answer };
  const fn = { name: step.name, arguments: JSON.stringify(step.arguments) };
  return {
    role: 'assistant',
    tool_calls: [{ index: 0, id: step.callId, type: 'function', function: fn }],
  };
}

function chatStream(turn: number, step: ChatToolStep | undefined, answer: string): string {
  const chunk = (choices: readonly Json[], extra: Json = {}) => ({
    id: `chatcmpl-${turn}`,
    object: 'chat.completion.chunk',
    created: 1_700_000_000 + turn,
    model: 'scripted',
    choices,
    ...extra,
  });
  const finish = step === undefined ? 'stop' : 'tool_calls';
  const chunks = [
    chunk([{ index: 0, delta: delta(step, answer), finish_reason: null }]),
    chunk([{ index: 0, delta: {}, finish_reason: finish }]),
    chunk([], { usage: USAGE }),
  ];
  return `${chunks.map((c) => `data: ${JSON.stringify(c)}\n\n`).join('')}data: [DONE]\n\n`;
}

function nextStep(steps: readonly ChatToolStep[], body: Json): ChatToolStep | undefined {
  const messages = Array.isArray(body.messages) ? (body.messages as Json[]) : [];
  const answered = new Set(
    messages.filter((message) => message.role === 'tool').map((message) => message.tool_call_id),
  );
  return steps.find((candidate) => !answered.has(candidate.callId));
}

export function startChatUpstream(script: {
  readonly steps: readonly ChatToolStep[];
  readonly answer: string;
}): Promise<ChatUpstream> {
  return startRecordingUpstream({
    route: '/chat/completions',
    stream: (body, turn) => chatStream(turn, nextStep(script.steps, body), script.answer),
  });
}

export type QwenCodeRun = AgentRun;

const SETTINGS = {
  general: { enableAutoUpdate: false },
  privacy: { usageStatisticsEnabled: false },
  memory: { enableManagedAutoMemory: false },
};

/**
 * `qwen PROMPT` (headless, tools auto-approved) in `cwd` with a private HOME under `base`,
 * talking to `baseUrl` (ending in `/v1`) through the OpenAI auth type and its env variables.
 */
export async function runQwenCode(input: {
  readonly command: readonly string[];
  readonly base: string;
  readonly cwd: string;
  readonly baseUrl: string;
  readonly prompt: string;
  /** Merged into the private settings (top-level keys replace). */
  readonly settings?: Readonly<Record<string, unknown>>;
}): Promise<QwenCodeRun> {
  const home = path.join(input.base, 'home');
  await mkdir(path.join(home, '.qwen'), { recursive: true });
  await writeFile(
    path.join(home, '.qwen', 'settings.json'),
    JSON.stringify({ ...SETTINGS, ...input.settings }),
  );
  const args = ['--auth-type', 'openai', '--approval-mode', 'yolo', input.prompt];
  const env = {
    PATH: process.env.PATH,
    HOME: home,
    OPENAI_API_KEY: 'dummy',
    OPENAI_BASE_URL: input.baseUrl,
    OPENAI_MODEL: 'scripted-model',
    QWEN_CODE_SUPPRESS_YOLO_WARNING: '1',
  };
  return runAgentCli({ command: input.command, args, cwd: input.cwd, env, timeoutMs: 120_000 });
}
