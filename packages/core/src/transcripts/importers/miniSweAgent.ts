/**
 * mini-swe-agent `traj.json` → IContent[]. Bash-only protocol: each assistant message is a thought
 * and exactly one ```bash block; the block becomes a `run_shell_command` call (`mini-step-N`) and the
 * next user message (`<returncode>…</returncode><output>…`) its response, an error when the return
 * code is non-zero or the command timed out. Messages without exactly one action stay text, and
 * the format-error reply that follows them stays a human message.
 */
import { textBlock, toolCallBlock } from '../../services/history/IContent.js';
import { SessionBuilder, type ImportSource } from '../SessionBuilder.js';
import { TranscriptError } from '../TranscriptError.js';
import { isParams } from '../toolAliases.js';
import type { ImportedSession } from '../types.js';

const ACTION = /```bash\s*\n([\s\S]*?)\n```/g;

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
  const info = isParams(document.info) ? document.info : {};
  const config = isParams(info.config) ? info.config : {};
  const environment = isParams(config.environment) ? config.environment : {};
  const model = isParams(config.model) ? config.model : {};
  builder.noteFacts({
    sessionId: document.instance_id,
    workspaceRoot: environment.cwd,
    model: model.model_name,
  });
  let pending: string | undefined;
  let step = 0;
  document.messages.forEach((message: unknown, i) => {
    if (!isParams(message) || typeof message.role !== 'string') {
      builder.skip({ path: `$.messages[${i}]` }, 'expected a message with a role');
      return;
    }
    const text = contentText(message.content);
    if (message.role === 'system') builder.ignore('system prompt');
    else if (message.role === 'assistant') {
      const { thought, action } = splitMiniAction(text);
      pending = action === undefined ? undefined : `mini-step-${step}`;
      step += 1;
      builder.content.ai(
        pending === undefined || action === undefined
          ? [textBlock(text)]
          : [
              textBlock(thought),
              toolCallBlock(pending, 'run_shell_command', { command: action }, 'bash'),
            ],
      );
    } else if (pending !== undefined) {
      builder.content.toolResponse(
        isFailedObservation(text)
          ? { callId: pending, result: '', error: text }
          : { callId: pending, result: text },
      );
      pending = undefined;
    } else builder.content.human(text);
  });
  return builder.build();
}
