/**
 * mini-swe-agent `traj.json` → IContent[], both protocols. 1.x (text): each assistant message is a
 * thought and exactly one ```bash block; the block becomes a `run_shell_command` call
 * (`mini-step-N`) and the next user message (`<returncode>…</returncode><output>…`) its response.
 * Messages without exactly one action stay text, and the format-error reply that follows them stays
 * a human message. 2.x (`trajectory_format` "mini-swe-agent-1.1"): native `tool_calls` on the
 * assistant message, answered by `role: "tool"` messages naming `tool_call_id`; reasoning models
 * leave `content` empty and put their text in `reasoning_content` (kept as thinking). A response is
 * an error when the return code is non-zero, an exception was recorded, or the command timed out.
 * The closing `role: "exit"` message is bookkeeping the model never saw.
 */
import {
  textBlock,
  toolCallBlock,
  type ContentBlock,
  type ToolCallBlock,
} from '../../services/history/IContent.js';
import { SessionBuilder, type ImportSource } from '../SessionBuilder.js';
import { TranscriptError } from '../TranscriptError.js';
import { isParams } from '../toolAliases.js';
import type { ImportedSession } from '../types.js';

type Json = Readonly<Record<string, unknown>>;

const ACTION = /```bash\s*\n([\s\S]*?)\n```/g;
/** Bash blocks as the agent finds them; it runs a reply's action only when there is exactly one. */
const BASH_BLOCK = /```bash\s*\n[\s\S]*?\n```/g;

function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  return (Array.isArray(content) ? content : [])
    .map((part) => (isParams(part) && typeof part.text === 'string' ? part.text : ''))
    .join('');
}

/** The single action of a reply, with the reply's text minus the action block. */
export function splitMiniAction(content: string): { thought: string; action?: string } {
  const matches = [...content.matchAll(ACTION)];
  const match = matches[0];
  if (matches.length !== 1 || match === undefined) return { thought: content };
  const thought = (
    content.slice(0, match.index) + content.slice(match.index + match[0].length)
  ).trim();
  return { thought, action: (match[1] ?? '').trim() };
}

/** Whether an observation reports failure: a non-zero `<returncode>` or a timeout notice. */
export function isFailedObservation(text: string): boolean {
  const code = /<returncode>\s*(-?\d+)\s*<\/returncode>/.exec(text)?.[1];
  if (code !== undefined) return Number(code) !== 0;
  return text.includes('timed out and has been killed');
}

/** A native tool call as a canonical call: `bash` becomes `run_shell_command`. */
function nativeCall(call: unknown, index: number, step: number): ToolCallBlock | undefined {
  if (!isParams(call)) return undefined;
  const fn = isParams(call.function) ? call.function : {};
  const name = typeof fn.name === 'string' ? fn.name : undefined;
  if (name === undefined) return undefined;
  const id = typeof call.id === 'string' && call.id !== '' ? call.id : `mini-step-${step}-${index}`;
  let args: unknown = fn.arguments;
  if (typeof args === 'string') {
    try {
      args = JSON.parse(args) as unknown;
    } catch {
      args = { arguments: args };
    }
  }
  const command = isParams(args) ? args.command : undefined;
  return name === 'bash' && typeof command === 'string'
    ? toolCallBlock(id, 'run_shell_command', { command }, name)
    : toolCallBlock(id, name, isParams(args) ? args : {}, name);
}

/** Whether a 2.x tool message reports failure (return code, exception, or the 1.x text signs). */
function failedToolMessage(message: Json, text: string): boolean {
  const extra = isParams(message.extra) ? message.extra : {};
  if (typeof extra.returncode === 'number' && extra.returncode !== 0) return true;
  if (typeof extra.exception_info === 'string' && extra.exception_info !== '') return true;
  return isFailedObservation(text);
}

/** Walks the messages, keeping the call the next observation answers. */
class MiniReader {
  private pending: string | undefined;
  private step = 0;

  constructor(private readonly builder: SessionBuilder) {}

  message(message: Json, path: string): void {
    const text = contentText(message.content);
    switch (message.role) {
      case 'system':
        this.builder.ignore('system prompt');
        return;
      case 'exit':
        this.builder.ignore('exit message');
        return;
      case 'assistant':
        this.assistant(message, text);
        return;
      case 'tool':
        this.tool(message, text, path);
        return;
      default:
        this.observation(text);
    }
  }

  private assistant(message: Json, text: string): void {
    this.builder.recordModelCall();
    const native = Array.isArray(message.tool_calls) ? message.tool_calls : [];
    const thinking: ContentBlock[] =
      typeof message.reasoning_content === 'string'
        ? [{ type: 'thinking', thought: message.reasoning_content }]
        : [];
    this.pending = undefined;
    if (native.length > 0) {
      this.builder.recordToolCalls(native.length);
      const calls = native
        .map((call, index) => nativeCall(call, index, this.step))
        .filter((call): call is ToolCallBlock => call !== undefined);
      this.step += 1;
      this.builder.content.ai([...thinking, textBlock(text), ...calls]);
      return;
    }
    const { thought, action } = splitMiniAction(text);
    if ((text.match(BASH_BLOCK) ?? []).length === 1) this.builder.recordToolCalls(1);
    this.pending = action === undefined ? undefined : `mini-step-${this.step}`;
    this.step += 1;
    this.builder.content.ai(
      this.pending === undefined || action === undefined
        ? [...thinking, textBlock(text)]
        : [
            ...thinking,
            textBlock(thought),
            toolCallBlock(this.pending, 'run_shell_command', { command: action }, 'bash'),
          ],
    );
  }

  private tool(message: Json, text: string, path: string): void {
    const callId = typeof message.tool_call_id === 'string' ? message.tool_call_id : '';
    const failed = failedToolMessage(message, text);
    const recorded = this.builder.content.toolResponse(
      failed ? { callId, result: '', error: text } : { callId, result: text },
    );
    if (!recorded)
      this.builder.skipOrphanResult({ path }, `tool message for unknown tool_call_id '${callId}'`);
  }

  /** A 1.x user message: the pending call's observation, or a human message. */
  private observation(text: string): void {
    const pending = this.pending;
    this.pending = undefined;
    if (pending === undefined) {
      this.builder.content.human(text);
      return;
    }
    this.builder.content.toolResponse(
      isFailedObservation(text)
        ? { callId: pending, result: '', error: text }
        : { callId: pending, result: text },
    );
  }
}

/** Imports a parsed `traj.json` (`{messages, info, trajectory_format}`). */
export function importMiniSweAgent(document: unknown, source: ImportSource): ImportedSession {
  if (!isParams(document) || !Array.isArray(document.messages)) {
    throw new TranscriptError(
      'TRANSCRIPT_INVALID_STRUCTURE',
      `${source.file}: expected a mini-swe-agent trajectory object with a messages array.`,
      source.file,
      { path: '$.messages' },
    );
  }
  const builder = new SessionBuilder(source, 'mini-swe-agent');
  builder.countRecorded();
  const info = isParams(document.info) ? document.info : {};
  const config = isParams(info.config) ? info.config : {};
  const environment = isParams(config.environment) ? config.environment : {};
  const model = isParams(config.model) ? config.model : {};
  builder.noteFacts({
    sessionId: document.instance_id,
    workspaceRoot: environment.cwd,
    model: model.model_name,
  });
  const reader = new MiniReader(builder);
  document.messages.forEach((message: unknown, i) => {
    if (!isParams(message) || typeof message.role !== 'string') {
      builder.skip({ path: `$.messages[${i}]` }, 'expected a message with a role');
      return;
    }
    reader.message(message, `$.messages[${i}]`);
  });
  return builder.build();
}
