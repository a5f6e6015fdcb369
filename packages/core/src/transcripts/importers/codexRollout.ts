/**
 * Codex CLI rollout JSONL → IContent[]. Reads the protocol log (`response_item`, or bare items in
 * older rollouts); the display log (`event_msg`) mirrors it and is ignored. Shell calls become
 * `run_shell_command` with the command as one string; `apply_patch` becomes one write call per
 * file it touches; outputs carry an error when the exit code is non-zero or the call was rejected.
 * A `compacted` line is a compaction boundary: a summary entry holding the history Codex went on
 * with (codexRolloutCompaction.ts). Each AI entry carries the usage its call recorded, and the
 * session the window the rollout records (codexRolloutUsage.ts).
 */
import { textBlock, toolCallBlock, type ContentBlock } from '../../services/history/IContent.js';
import { extractPatch, parseApplyPatch, type FilePatch } from '../applyPatch.js';
import { jsonObjectLines, type LineSource } from '../lineSource.js';
import { CodexCallCounter } from '../recordedCalls.js';
import { SessionBuilder, type ImportSource } from '../SessionBuilder.js';
import { joinedText, num, obj, recordedTime, str, type Json } from '../jsonValues.js';
import { DELETE_FILE_TOOL, isParams, mapToolCall, type CanonicalCall } from '../toolAliases.js';
import type { ImportedSession } from '../types.js';
import { readCompaction } from './codexRolloutCompaction.js';
import { CodexUsageTracker } from './codexRolloutUsage.js';

const SHELL_NAMES = new Set(['shell', 'shell_command', 'exec_command', 'container.exec']);
const ITEM_TYPES = new Set([
  'message',
  'reasoning',
  'function_call',
  'function_call_output',
  'custom_tool_call',
  'custom_tool_call_output',
  'local_shell_call',
  'web_search_call',
]);

function quoteWord(word: string): string {
  return /^[A-Za-z0-9_./:=@%+,-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/** A recorded command as one string: `["bash", "-lc", X]` → X, other argv joined with quoting. */
export function shellCommandString(command: unknown): string | undefined {
  if (typeof command === 'string') return command;
  if (!Array.isArray(command)) return undefined;
  const argv = command.filter((word): word is string => typeof word === 'string');
  if (argv.length !== command.length) return undefined;
  const [shell = '', flag = '', script] = argv;
  if (argv.length === 3 && /(^|\/)(ba|z|da)?sh$/.test(shell) && /^-l?c$/.test(flag)) return script;
  return argv.map(quoteWord).join(' ');
}

/** The patch inside a shell command that runs `apply_patch`, if it is one. */
function shellPatch(command: string | undefined): string | undefined {
  return command !== undefined && /^\s*apply_patch\b/.test(command)
    ? extractPatch(command)
    : undefined;
}

/** Arguments as recorded: JSON-in-a-string for function calls, raw text for custom tools. */
function callArguments(item: Json): unknown {
  const raw = item.arguments ?? item.input;
  if (typeof raw !== 'string' || item.type !== 'function_call') return raw;
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return raw; // the model sent it so
  }
}

function patchCall(file: FilePatch): CanonicalCall {
  switch (file.kind) {
    case 'add':
      return { name: 'write_file', parameters: { file_path: file.path, content: file.content } };
    case 'update':
      return {
        name: 'replace',
        parameters: {
          file_path: file.path,
          old_string: file.oldText,
          new_string: file.newText,
          ...(file.moveTo === undefined ? {} : { move_to: file.moveTo }),
        },
      };
    case 'delete':
      return { name: DELETE_FILE_TOOL, parameters: { file_path: file.path } };
  }
}

class CodexSession {
  readonly builder: SessionBuilder;
  readonly usage = new CodexUsageTracker();
  /** Recorded call id → the ids of the calls it became (several for a multi-file patch). */
  private readonly expanded = new Map<string, string[]>();
  private turn = 0;
  /** The recorded time of the line being read (set on every line that has one). */
  time: number | undefined;
  /**
   * The recorded time of the last protocol item when it was a call output: the turn was running,
   * so a compaction right after it started then (Codex compacts before its next model call).
   */
  private outputTime: number | undefined;

  constructor(source: ImportSource) {
    this.builder = new SessionBuilder(source, 'codex');
  }

  private ai(blocks: ContentBlock[]): void {
    const size = this.builder.content.size;
    this.builder.content.ai(blocks, {
      groupKey: `turn-${this.turn}`,
      ...(this.time === undefined ? {} : { metadata: { timestamp: this.time } }),
    });
    if (this.builder.content.size > size) this.usage.replyEntryAt(size);
  }

  /** One AI call, or one per file for a patch; unparseable patches stay one call. */
  private calls(callId: string, original: string, mapped: CanonicalCall, patchText?: string): void {
    const files = patchText === undefined ? [] : parseApplyPatch(patchText);
    if (files.length === 0) {
      this.expanded.set(callId, [callId]);
      this.ai([toolCallBlock(callId, mapped.name, mapped.parameters, original)]);
      return;
    }
    const ids = files.length === 1 ? [callId] : files.map((_, i) => `${callId}#${i + 1}`);
    this.expanded.set(callId, ids);
    this.ai(
      files.map((file, i) => {
        const call = patchCall(file);
        return toolCallBlock(ids[i] ?? callId, call.name, call.parameters, original);
      }),
    );
  }

  functionCall(item: Json, line: number): void {
    const name = str(item.name) ?? 'unknown';
    const callId = str(item.call_id) ?? `codex-line-${line}`;
    const params = callArguments(item);
    if (name === 'apply_patch') {
      const text = str(params) ?? str(obj(params).input);
      const patch = text === undefined ? undefined : (extractPatch(text) ?? text);
      this.calls(callId, name, { name, parameters: params }, patch);
    } else if (SHELL_NAMES.has(name) && isParams(params)) {
      const command = shellCommandString(params.command ?? params.cmd);
      const withCommand = command === undefined ? params : { ...params, command };
      this.calls(callId, name, mapToolCall('codex', name, withCommand), shellPatch(command));
    } else this.calls(callId, name, mapToolCall('codex', name, params));
  }

  localShellCall(item: Json, line: number): void {
    const action = obj(item.action);
    const callId = str(item.call_id) ?? str(item.id) ?? `codex-line-${line}`;
    const command = shellCommandString(action.command) ?? '';
    const cwd = str(action.working_directory);
    const call = {
      name: 'run_shell_command',
      parameters: { command, ...(cwd === undefined ? {} : { cwd }) },
    };
    this.calls(callId, 'local_shell_call', call, shellPatch(command));
  }

  output(item: Json, line: number): void {
    const callId = typeof item.call_id === 'string' ? item.call_id : '';
    const ids = this.expanded.get(callId);
    if (ids === undefined) {
      this.builder.skipOrphanResult({ line }, `output for unknown call_id '${callId}'`);
      return;
    }
    const { text, failed } = readOutput(item.output, this.builder.content.callName(ids[0] ?? ''));
    for (const id of ids) {
      this.builder.content.toolResponse(
        failed ? { callId: id, result: '', error: text } : { callId: id, result: text },
      );
    }
    this.turn += 1;
  }

  message(item: Json): void {
    const text = joinedText(item.content, '\n');
    if (item.role === 'assistant') this.ai([textBlock(text)]);
    else if (item.role === 'user') {
      this.builder.content.human(text);
      this.turn += 1;
    } else this.builder.ignore(`${str(item.role) ?? 'unknown'} message`);
  }

  reasoning(item: Json): void {
    this.ai([{ type: 'thinking', thought: joinedText(item.summary, '\n') }]);
  }

  /**
   * A compaction boundary: the summary entry holds what Codex went on with. Its wait is known
   * when a call output came just before (`compactionStartedAt`); at the start of a turn the
   * rollout does not record when the user asked.
   */
  compacted(payload: Json): void {
    const { blocks, keptMessageBlocks, ignored } = readCompaction(payload);
    for (const reason of ignored) this.builder.ignore(reason);
    this.usage.compacted();
    this.builder.content.human(blocks, {
      isSummary: true,
      ...(keptMessageBlocks.length === 0 ? {} : { keptMessageBlocks }),
      ...(this.time === undefined ? {} : { timestamp: this.time }),
      ...(this.outputTime === undefined ? {} : { compactionStartedAt: this.outputTime }),
    });
    this.turn += 1;
  }

  item(item: Json, line: number): void {
    if (item.type !== 'ghost_snapshot') {
      this.outputTime = String(item.type).endsWith('_call_output') ? this.time : undefined;
    }
    switch (item.type) {
      case 'message':
        return this.message(item);
      case 'reasoning':
        return this.reasoning(item);
      case 'function_call':
      case 'custom_tool_call':
        return this.functionCall(item, line);
      case 'local_shell_call':
        return this.localShellCall(item, line);
      case 'function_call_output':
      case 'custom_tool_call_output':
        return this.output(item, line);
      default:
        this.builder.ignore(`${String(item.type)} item`);
    }
  }
}

interface OutputFacts {
  readonly text: string;
  readonly exitCode?: number;
  readonly success?: boolean;
}

/** A recorded output's text and, when recorded, its exit code or success flag. */
function outputFacts(output: unknown): OutputFacts {
  if (isParams(output)) {
    const success = typeof output.success === 'boolean' ? { success: output.success } : {};
    return { text: str(output.content) ?? JSON.stringify(output), ...success };
  }
  const text = str(output) ?? '';
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined; // a plain-text output
  }
  const wrapped = obj(parsed);
  const inner = str(wrapped.output);
  const exitCode =
    num(obj(wrapped.metadata).exit_code) ?? num(Number(/^Exit code: (-?\d+)/.exec(text)?.[1]));
  return { text: inner ?? text, ...(exitCode === undefined ? {} : { exitCode }) };
}

const REJECTED = /^(exec command rejected|aborted|patch rejected)/i;
const PATCH_FAILED = /^(error|failed|invalid patch|apply_patch verification failed)/i;

/** The text of a recorded output and whether it reports a failure. */
export function readOutput(output: unknown, toolName?: string): { text: string; failed: boolean } {
  const { text, exitCode, success } = outputFacts(output);
  const patchFailed =
    toolName !== 'run_shell_command' && exitCode === undefined && PATCH_FAILED.test(text);
  const exitFailed = exitCode !== undefined && exitCode !== 0;
  return { text, failed: REJECTED.test(text) || patchFailed || success === false || exitFailed };
}

function onRecord(session: CodexSession, record: Json, line: number): void {
  const { builder } = session;
  const payload = obj(record.payload);
  const type = str(record.type) ?? '';
  session.time = recordedTime(record.timestamp) ?? recordedTime(payload.timestamp);
  switch (type) {
    case 'session_meta':
      builder.noteFacts({ sessionId: payload.id, workspaceRoot: payload.cwd });
      return builder.ignore('session_meta line');
    case 'turn_context':
      builder.noteFacts({ model: payload.model, workspaceRoot: payload.cwd });
      return builder.ignore('turn_context line');
    case 'response_item':
      return session.item(payload, line);
    case 'compacted':
      return session.compacted(payload);
    case 'event_msg':
      if (payload.type === 'token_count') session.usage.tokenCount(payload);
      return builder.ignore('event_msg line (display log)');
    default:
      if (ITEM_TYPES.has(type)) return session.item(record, line);
      if (line === 1 && str(record.id) !== undefined && record.type === undefined) {
        builder.noteFacts({ sessionId: record.id });
        return builder.ignore('session header line');
      }
      return builder.ignoreUnknown('line type');
  }
}

/** Imports one Codex rollout. */
export async function importCodexRollout(
  lines: LineSource,
  source: ImportSource,
): Promise<ImportedSession> {
  const session = new CodexSession(source);
  const counter = new CodexCallCounter();
  for await (const parsed of jsonObjectLines(lines)) {
    if (parsed.kind === 'invalid') session.builder.skip({ line: parsed.line }, parsed.reason);
    else {
      const replying = counter.replying;
      counter.add(parsed.value);
      if (!replying && counter.replying) session.usage.replyStarted();
      if (replying && !counter.replying) session.usage.replyEnded();
      onRecord(session, parsed.value, parsed.line);
    }
  }
  session.builder.addRecorded(counter.calls);
  return withUsage(session.builder.build(), session.usage);
}

/** The built session with each call's recorded usage on its AI entry, and the recorded window. */
function withUsage(built: ImportedSession, usage: CodexUsageTracker): ImportedSession {
  const contents = built.contents.map((entry, index) => {
    const recorded = usage.usage.get(index);
    return recorded === undefined || entry.speaker !== 'ai'
      ? entry
      : { ...entry, metadata: { ...entry.metadata, usage: recorded } };
  });
  const window = usage.contextWindow;
  return {
    ...built,
    contents,
    ...(window === undefined ? {} : { recordedContextWindow: window }),
  };
}
