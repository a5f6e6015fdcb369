/**
 * SWE-agent `.traj` (0.x windowed editor, 1.x with or without function calling) → IContent[].
 * The history is what the model saw: each assistant message becomes an AI entry (thought text + one
 * call, or its function calls) and the observation after it the tool response. Call ids are the
 * recorded ones, or `swe-step-N`. Demonstrations and the first prompt are human text; the system
 * prompt is ignored (replay supplies its own).
 */
import { textBlock, toolCallBlock, type ContentBlock } from '../../services/history/IContent.js';
import { SessionBuilder, type ImportSource } from '../SessionBuilder.js';
import {
  isEditorFailure,
  mapSweCommand,
  parseSweAction,
  type EditorState,
  type SweCommand,
} from '../sweAgentCommands.js';
import { countSweAgentCalls } from '../recordedCalls.js';
import { TranscriptError } from '../TranscriptError.js';
import { list, obj } from '../jsonValues.js';
import { isParams } from '../toolAliases.js';
import { isWriteTool, isReadTool } from '../../core/compression/densityVocabulary.js';
import type { ImportedSession } from '../types.js';

type Json = Readonly<Record<string, unknown>>;

interface PendingStep {
  readonly id: string;
  readonly text: string;
  readonly command: SweCommand;
  readonly raw: string;
}

function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  return (Array.isArray(content) ? content : [])
    .map((part) => (isParams(part) && typeof part.text === 'string' ? part.text : ''))
    .join('');
}

/** Splits "thought ```action```" into the thought and the last fenced block. */
export function splitThoughtAction(content: string): { thought: string; action: string } {
  const fence = /```[^\n]*\n([\s\S]*?)\n?```/g;
  let last: RegExpExecArray | undefined;
  for (let match = fence.exec(content); match; match = fence.exec(content)) last = match;
  if (last === undefined) return { thought: content, action: '' };
  return {
    thought: (content.slice(0, last.index) + content.slice(last.index + last[0].length)).trim(),
    action: last[1] ?? '',
  };
}

function parseState(state: unknown): Json {
  if (isParams(state)) return state;
  if (typeof state !== 'string') return {};
  try {
    const parsed: unknown = JSON.parse(state);
    return isParams(parsed) ? parsed : {};
  } catch {
    return {};
  }
}

class SweSession {
  readonly builder: SessionBuilder;
  private editor: EditorState = {};
  private pending: PendingStep | undefined;
  private step = 0;

  constructor(
    source: ImportSource,
    private readonly trajectory: readonly Json[],
    private readonly aligned: boolean,
    /** Function-calling observations by call id, so a call is mapped knowing what it showed. */
    private readonly observations: ReadonlyMap<string, string>,
  ) {
    this.builder = new SessionBuilder(source, 'swe-agent');
  }

  /** Emits a pending text-protocol step with its observation (if any). */
  private flush(observation?: string): void {
    const step = this.pending;
    if (step === undefined) return;
    this.pending = undefined;
    const mapped = mapSweCommand(step.command, this.editor, observation ?? '', step.raw);
    this.editor = { ...this.editor, ...(mapped.openFile ? { openFile: mapped.openFile } : {}) };
    this.builder.content.ai([
      textBlock(step.text),
      toolCallBlock(step.id, mapped.call.name, mapped.call.parameters, step.command.name),
    ]);
    if (observation !== undefined) this.respond(step.id, observation);
  }

  private noteState(): void {
    const state = parseState(this.trajectory[this.step]?.state);
    if (typeof state.working_dir === 'string') {
      this.editor = { ...this.editor, cwd: state.working_dir };
      this.builder.noteFacts({ workspaceRoot: state.working_dir });
    }
  }

  assistant(message: Json): void {
    this.flush();
    const content = contentText(message.content);
    if (Array.isArray(message.tool_calls) && message.tool_calls.length > 0) {
      this.functionCalls(message, content);
    } else {
      const recorded = this.aligned ? this.trajectory[this.step]?.action : undefined;
      const split = splitThoughtAction(content);
      const action =
        typeof message.action === 'string'
          ? message.action
          : typeof recorded === 'string'
            ? recorded
            : split.action;
      const thought = typeof message.thought === 'string' ? message.thought : split.thought;
      if (action.trim() === '') this.builder.content.ai([textBlock(content)]);
      else
        this.pending = {
          id: `swe-step-${this.step}`,
          text: thought,
          command: parseSweAction(action),
          raw: action.trim(),
        };
    }
    if (this.aligned) this.noteState();
    this.step += 1;
  }

  private functionCalls(message: Json, content: string): void {
    const calls = (message.tool_calls as unknown[]).filter(isParams);
    const blocks: ContentBlock[] = [
      textBlock(typeof message.thought === 'string' ? message.thought : content),
    ];
    calls.forEach((call, k) => {
      const fn = isParams(call.function) ? call.function : {};
      const name = typeof fn.name === 'string' ? fn.name : 'unknown';
      let args: unknown = fn.arguments;
      try {
        args = typeof args === 'string' ? JSON.parse(args) : args;
      } catch {
        // keep the raw string
      }
      const id = typeof call.id === 'string' ? call.id : `swe-step-${this.step}-${k}`;
      const command: SweCommand = {
        name: name === 'bash' ? 'bash' : name,
        args: isParams(args) ? args : {},
      };
      const raw = [name, ...Object.values(command.args).map(String)].join(' ');
      const mapped = mapSweCommand(command, this.editor, this.observations.get(id) ?? '', raw);
      if (mapped.openFile) this.editor = { ...this.editor, openFile: mapped.openFile };
      blocks.push(toolCallBlock(id, mapped.call.name, mapped.call.parameters, name));
    });
    this.builder.content.ai(blocks);
  }

  /** Follows `(Current directory: …)` and `[File: …]` notes in an observation. */
  private noteObservation(text: string, trackOpenFile: boolean): void {
    const cwd = /\(Current directory: (.+?)\)/.exec(text)?.[1];
    if (cwd !== undefined) {
      this.editor = { ...this.editor, cwd };
      this.builder.noteFacts({ workspaceRoot: cwd });
    }
    const header = /^\[File: (.+?) \(\d+ lines total/m.exec(text)?.[1];
    if (trackOpenFile && header !== undefined && !isEditorFailure(text)) {
      this.editor = { ...this.editor, openFile: header };
    }
  }

  private respond(callId: string, text: string): boolean {
    const name = this.builder.content.callName(callId) ?? '';
    const failed = (isWriteTool(name) || isReadTool(name)) && isEditorFailure(text);
    return this.builder.content.toolResponse(
      failed ? { callId, result: '', error: text } : { callId, result: text },
    );
  }

  observation(message: Json, path: string): void {
    const text = contentText(message.content);
    const ids = list(message.tool_call_ids).filter((id): id is string => typeof id === 'string');
    const functionCalling = ids.length > 0 || message.role === 'tool';
    this.noteObservation(text, functionCalling);
    if (functionCalling) {
      for (const id of ids) {
        if (!this.respond(id, text))
          this.builder.skipOrphanResult({ path }, `observation for unknown tool call '${id}'`);
      }
    } else if (this.pending) this.flush(text);
    else this.builder.content.human(text);
  }

  end(): void {
    this.flush();
  }
}

/** Imports a parsed `.traj` document (`{history, trajectory, info}`). */
export function importSweAgent(document: unknown, source: ImportSource): ImportedSession {
  if (!isParams(document) || !Array.isArray(document.history)) {
    throw new TranscriptError(
      'TRANSCRIPT_INVALID_STRUCTURE',
      `${source.file}: expected a SWE-agent trajectory object with a history array.`,
      source.file,
      { path: '$.history' },
    );
  }
  const history = document.history as unknown[];
  const trajectory = (Array.isArray(document.trajectory) ? document.trajectory : []).filter(
    isParams,
  );
  // The main agent is the one that speaks first ('primary' in 0.x, 'main' in 1.x).
  const first: unknown = history[0];
  const mainAgent = isParams(first) ? first.agent : undefined;
  const primary = history.filter(
    (m) => !isParams(m) || m.agent === undefined || m.agent === mainAgent,
  );
  const assistants = primary.filter(
    (m) => isParams(m) && m.role === 'assistant' && m.is_demo !== true,
  ).length;
  const observations = new Map<string, string>();
  for (const message of history) {
    const ids = isParams(message) ? list(message.tool_call_ids) : [];
    for (const id of ids)
      if (typeof id === 'string') observations.set(id, contentText(obj(message).content));
  }
  const session = new SweSession(
    source,
    trajectory,
    assistants === trajectory.length,
    observations,
  );
  session.builder.addRecorded(countSweAgentCalls(history));
  history.forEach((message, i) => {
    const path = `$.history[${i}]`;
    if (!isParams(message) || typeof message.role !== 'string')
      session.builder.skip({ path }, 'expected a message with a role');
    else if (message.agent !== undefined && message.agent !== mainAgent)
      session.builder.ignore('message of another agent');
    else if (message.role === 'system') session.builder.ignore('system prompt');
    else if (message.is_demo === true)
      session.builder.content.human(contentText(message.content), { demonstration: true });
    else if (message.role === 'assistant') session.assistant(message);
    else session.observation(message, path);
  });
  session.end();
  return session.builder.build();
}
