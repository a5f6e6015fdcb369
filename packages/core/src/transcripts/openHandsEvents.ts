/**
 * An OpenHands event stream (actions and observations) → IContent[]. Actions that share one model
 * response become one AI entry (the response's text plus one call per action); an observation
 * answers the action named by its `cause` (or, in legacy streams without ids, the action just
 * before it). Error observations, `ERROR:` edit results, failed agentskills edits and non-zero exit
 * codes carry an error. System prompts, recalls and agent-state changes are ignored.
 */
import { textBlock, toolCallBlock, type ContentBlock } from '../services/history/IContent.js';
import {
  joinedText,
  list,
  num,
  obj,
  parseObject,
  recordedTime,
  str,
  type Json,
} from './jsonValues.js';
import { mapIpythonCell } from './openHandsIpython.js';
import type { SessionBuilder } from './SessionBuilder.js';
import { isParams, mapToolCall, type CanonicalCall } from './toolAliases.js';

const IGNORED_OBSERVATIONS = new Set([
  'agent_state_changed',
  'null',
  'recall',
  'change_agent_state',
]);
const IGNORED_ACTIONS = new Set(['system', 'recall', 'change_agent_state', 'null']);
const TEXT_ACTIONS = new Set(['message', 'finish', 'reject']);
const FAILED_CONTENT =
  /^(ERROR:|\[No exact match found|\[Your proposed edit has introduced new syntax error|\[Error)/;

/** The event's recorded time as AI-entry metadata (none when it has no usable timestamp). */
function timeMetadata(event: Json): { metadata?: { timestamp: number } } {
  const timestamp = recordedTime(event.timestamp);
  return timestamp === undefined ? {} : { metadata: { timestamp } };
}

interface RecordedCall {
  readonly id: string;
  readonly original: string;
  readonly call: CanonicalCall;
  readonly text?: string;
  readonly groupKey?: string;
}

function withoutNulls(params: Json): Json {
  return Object.fromEntries(
    Object.entries(params).filter(
      ([key, value]) => value !== null && value !== undefined && key !== 'thought',
    ),
  );
}

/** The function name and arguments of an action that has no recorded tool call. */
function legacyCall(action: string, args: Json): { name: string; params: Json } {
  switch (action) {
    case 'run':
      return { name: 'execute_bash', params: withoutNulls({ command: args.command }) };
    case 'run_ipython':
      return { name: 'execute_ipython_cell', params: { code: args.code } };
    case 'read':
      return {
        name: 'str_replace_editor',
        params: withoutNulls({ command: 'view', path: args.path, view_range: args.view_range }),
      };
    case 'write':
      return {
        name: 'str_replace_editor',
        params: withoutNulls({ command: 'create', path: args.path, file_text: args.content }),
      };
    case 'edit':
      return str(args.command)
        ? {
            name: 'str_replace_editor',
            params: withoutNulls({
              ...args,
              content: undefined,
              start: undefined,
              end: undefined,
              impl_source: undefined,
            }),
          }
        : {
            name: 'edit_file',
            params: withoutNulls({
              path: args.path,
              content: args.content,
              start: args.start,
              end: args.end,
            }),
          };
    default:
      return { name: action, params: withoutNulls(args) };
  }
}

/** The model response an action came from, and the recorded call with the action's id in it. */
function modelCall(event: Json): {
  id?: string;
  fnName?: string;
  fn: Json;
  message: Json;
  responseId?: string;
} {
  const meta = obj(event.tool_call_metadata);
  const response = obj(meta.model_response);
  const message = obj(obj(list(response.choices)[0]).message);
  const id = str(meta.tool_call_id);
  const recorded = list(message.tool_calls).find((c) => isParams(c) && c.id === id);
  return {
    ...(id === undefined ? {} : { id }),
    ...(str(meta.function_name) === undefined ? {} : { fnName: str(meta.function_name) }),
    fn: obj(obj(recorded).function),
    message,
    ...(str(response.id) === undefined ? {} : { responseId: str(response.id) }),
  };
}

function canonical(name: string, params: Json, observation: Json | undefined): CanonicalCall {
  const code = str(params.code);
  if (name === 'execute_ipython_cell' && code !== undefined) return mapIpythonCell(code);
  const isDirectory = (str(observation?.content) ?? '').startsWith(
    "Here's the files and directories",
  );
  return mapToolCall('openhands', name, params, { isDirectory });
}

function exitCodeOf(event: Json): number | undefined {
  const extras = obj(event.extras);
  return num(obj(extras.metadata).exit_code) ?? num(extras.exit_code) ?? num(event.exit_code);
}

function isFailure(observation: string, event: Json, content: string): boolean {
  const exitCode = exitCodeOf(event) ?? 0;
  return (
    observation === 'error' ||
    observation === 'user_rejected' ||
    FAILED_CONTENT.test(content) ||
    exitCode > 0
  );
}

export class OpenHandsConverter {
  private readonly callByAction = new Map<unknown, string>();
  private readonly observationByCause = new Map<unknown, Json>();
  private readonly textDone = new Set<string>();
  private lastCall: string | undefined;
  /** Legacy events have no `source`: messages before the agent's first action are the user's. */
  private agentActed = false;

  constructor(
    private readonly builder: SessionBuilder,
    events: readonly Json[],
  ) {
    for (const event of events) {
      if (event.cause !== undefined && event.cause !== null)
        this.observationByCause.set(event.cause, event);
    }
  }

  private recordedCall(event: Json, action: string, index: number): RecordedCall {
    const args = isParams(event.args) ? event.args : event;
    const model = modelCall(event);
    const fallback = legacyCall(action, args);
    const name = str(model.fn.name) ?? model.fnName ?? fallback.name;
    const params = parseObject(model.fn.arguments) ?? fallback.params;
    const text =
      model.message.content === undefined ? str(args.thought) : joinedText(model.message.content);
    return {
      id: model.id ?? `openhands-${num(event.id) ?? index}`,
      original: name,
      call: canonical(name, params, this.observationByCause.get(event.id)),
      ...(text === undefined ? {} : { text }),
      ...(model.responseId === undefined ? {} : { groupKey: model.responseId }),
    };
  }

  private toolAction(event: Json, action: string, index: number): void {
    const recorded = this.recordedCall(event, action, index);
    const blocks: ContentBlock[] = [];
    const key = recorded.groupKey;
    if (recorded.text !== undefined && (key === undefined || !this.textDone.has(key))) {
      blocks.push(textBlock(recorded.text));
      if (key !== undefined) this.textDone.add(key);
    }
    blocks.push(
      toolCallBlock(recorded.id, recorded.call.name, recorded.call.parameters, recorded.original),
    );
    this.builder.content.ai(blocks, {
      ...(key === undefined ? {} : { groupKey: key }),
      ...timeMetadata(event),
    });
    this.callByAction.set(event.id ?? `#${index}`, recorded.id);
    this.lastCall = recorded.id;
  }

  action(event: Json, action: string, index: number): void {
    const args = isParams(event.args) ? event.args : event;
    const text =
      str(args.content) ?? str(args.final_thought) ?? str(event.message) ?? str(args.thought) ?? '';
    const source = str(event.source) ?? (this.agentActed ? 'agent' : 'user');
    if (IGNORED_ACTIONS.has(action)) {
      this.builder.ignore(`${action} action`);
      return;
    }
    if (action === 'message' && source === 'user') {
      this.builder.content.human(text);
      const root = /<uploaded_files>\s*\n(.+)\n\s*<\/uploaded_files>/.exec(text)?.[1];
      this.builder.noteFacts({ workspaceRoot: root?.trim() });
      return;
    }
    if (TEXT_ACTIONS.has(action)) this.builder.content.ai([textBlock(text)], timeMetadata(event));
    else this.toolAction(event, action, index);
    this.agentActed = true;
  }

  /** The call an observation answers: its cause, its recorded tool call id, or (legacy) the last call. */
  private answeredCall(event: Json): string | undefined {
    const hasCause = event.cause !== undefined && event.cause !== null;
    const byCause = hasCause ? this.callByAction.get(event.cause) : undefined;
    const metaId = str(obj(event.tool_call_metadata).tool_call_id);
    const byMeta =
      metaId !== undefined && this.builder.content.hasCall(metaId) ? metaId : undefined;
    const legacy = event.cause === undefined ? this.lastCall : undefined;
    this.lastCall = undefined;
    return byCause ?? byMeta ?? legacy;
  }

  observation(event: Json, observation: string, path: string): void {
    if (IGNORED_OBSERVATIONS.has(observation)) {
      this.builder.ignore(`${observation} observation`);
      return;
    }
    const content = str(event.content) ?? str(event.message) ?? '';
    const jupyterDir = /\[Jupyter current working directory: (.+?)\]/.exec(content)?.[1];
    this.builder.noteFacts({
      workspaceRoot: obj(obj(event.extras).metadata).working_dir ?? jupyterDir,
    });
    const callId = this.answeredCall(event);
    if (callId === undefined) {
      this.builder.content.human(content);
      return;
    }
    const result = isFailure(observation, event, content)
      ? { callId, result: '', error: content }
      : { callId, result: content };
    if (!this.builder.content.toolResponse(result)) {
      this.builder.skip({ path }, `observation for an unknown action (${callId})`);
    }
  }
}

/**
 * Adds an event list to a session. Legacy `[action, observation]` pairs are flattened first;
 * `pathPrefix` names the list in skipped-record locations (`$.history`).
 */
export function convertOpenHandsEvents(
  events: readonly unknown[],
  builder: SessionBuilder,
  pathPrefix: string,
): void {
  const flat: { event: Json; path: string }[] = [];
  events.forEach((item, i) => {
    const items: readonly unknown[] = Array.isArray(item) ? item : [item];
    items.forEach((event, j) => {
      const path = Array.isArray(item) ? `${pathPrefix}[${i}][${j}]` : `${pathPrefix}[${i}]`;
      if (isParams(event)) flat.push({ event, path });
      else builder.skip({ path }, 'expected an event object');
    });
  });
  const converter = new OpenHandsConverter(
    builder,
    flat.map((e) => e.event),
  );
  flat.forEach(({ event, path }, index) => {
    const action = str(event.action);
    const observation = str(event.observation);
    if (action !== undefined) converter.action(event, action, index);
    else if (observation !== undefined) converter.observation(event, observation, path);
    else builder.skip({ path }, 'expected an action or an observation');
  });
}
