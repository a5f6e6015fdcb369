/**
 * Claude Code session records → IContent[], from the session JSONL or from the same records as one
 * JSON array (`logs/chat.json`). Assistant records sharing `message.id` are one reply and become
 * one AI entry; `tool_result` blocks in user records become tool entries (`is_error` → error);
 * thinking blocks are kept by default, since Claude Code sends them back and they fill the context;
 * summaries, snapshots, progress and other non-message records are ignored with counted reasons.
 * A file with any main-chain (`isSidechain: false`) message is a main session and its sidechain
 * messages (subagents, the `Warmup` exchange Claude Code 2.x records first) are ignored; a file of
 * sidechain messages only is a subagent transcript and imported as one.
 */
import {
  textBlock,
  toolCallBlock,
  type ContentBlock,
  type ContentMetadata,
  type MediaBlock,
} from '../../services/history/IContent.js';
import { jsonObjectLines, type LineSource, type ParsedLine } from '../lineSource.js';
import { SessionBuilder, type ImportSource } from '../SessionBuilder.js';
import { isParams, mapToolCall } from '../toolAliases.js';
import { recordedTime } from '../jsonValues.js';
import type { ImportedSession, RecordLocation } from '../types.js';

type Json = Readonly<Record<string, unknown>>;

const NON_MESSAGE_TYPES = new Set([
  'summary',
  'file-history-snapshot',
  'progress',
  'queue-operation',
  'system',
]);

function blocksOf(content: unknown): readonly unknown[] {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  return Array.isArray(content) ? content : [];
}

function assistantBlock(block: unknown, builder: SessionBuilder): ContentBlock | undefined {
  if (!isParams(block)) return undefined;
  switch (block.type) {
    case 'text':
      return typeof block.text === 'string' ? textBlock(block.text) : undefined;
    case 'thinking':
      return typeof block.thinking === 'string'
        ? {
            type: 'thinking',
            thought: block.thinking,
            ...(typeof block.signature === 'string' ? { signature: block.signature } : {}),
          }
        : undefined;
    case 'tool_use': {
      if (typeof block.id !== 'string' || typeof block.name !== 'string') return undefined;
      const mapped = mapToolCall('claude-code', block.name, block.input ?? {});
      return toolCallBlock(block.id, mapped.name, mapped.parameters, block.name);
    }
    default:
      builder.ignore(`assistant ${String(block.type)} block`);
      return undefined;
  }
}

function assistantMetadata(record: Json, message: Json): ContentMetadata {
  const timestamp = typeof record.timestamp === 'string' ? Date.parse(record.timestamp) : NaN;
  const usage = isParams(message.usage) ? message.usage : undefined;
  const input = (key: string): number => (typeof usage?.[key] === 'number' ? usage[key] : 0);
  const promptTokens =
    input('input_tokens') + input('cache_creation_input_tokens') + input('cache_read_input_tokens');
  return {
    ...(typeof message.id === 'string' ? { id: message.id } : {}),
    ...(typeof message.model === 'string' ? { model: message.model } : {}),
    ...(Number.isNaN(timestamp) ? {} : { timestamp }),
    ...(usage
      ? {
          usage: {
            promptTokens,
            completionTokens: input('output_tokens'),
            totalTokens: promptTokens + input('output_tokens'),
            cachedTokens: input('cache_read_input_tokens'),
          },
        }
      : {}),
  };
}

function onAssistant(record: Json, at: RecordLocation, builder: SessionBuilder): void {
  const message = isParams(record.message) ? record.message : undefined;
  if (
    message === undefined ||
    (!Array.isArray(message.content) && typeof message.content !== 'string')
  ) {
    builder.skip(at, 'assistant line without message.content');
    return;
  }
  if (record.isApiErrorMessage === true || message.model === '<synthetic>') {
    builder.ignore('synthetic assistant message (API error or notice)');
    return;
  }
  const groupKey = typeof message.id === 'string' ? message.id : undefined;
  builder.recordModelCall(groupKey);
  builder.recordToolCalls(
    blocksOf(message.content).filter((block) => isParams(block) && block.type === 'tool_use')
      .length,
  );
  builder.noteFacts({ model: message.model });
  const blocks = blocksOf(message.content)
    .map((block) => assistantBlock(block, builder))
    .filter((block): block is ContentBlock => block !== undefined);
  builder.content.ai(blocks, {
    ...(groupKey === undefined ? {} : { groupKey }),
    metadata: assistantMetadata(record, message),
  });
}

/** Text of a tool_result's content: a string, or text blocks (images become a placeholder). */
function toolResultText(content: unknown): string {
  return blocksOf(content)
    .map((block) => {
      if (!isParams(block)) return '';
      if (block.type === 'text' && typeof block.text === 'string') return block.text;
      if (block.type === 'image') return '[image]';
      return '';
    })
    .join('\n');
}

function imageBlock(block: Json): MediaBlock | undefined {
  const source = isParams(block.source) ? block.source : undefined;
  if (source?.type !== 'base64' || typeof source.data !== 'string') return undefined;
  const mimeType = typeof source.media_type === 'string' ? source.media_type : 'image/png';
  return { type: 'media', mimeType, data: source.data, encoding: 'base64' };
}

function onToolResult(block: Json, at: RecordLocation, builder: SessionBuilder): void {
  const callId = typeof block.tool_use_id === 'string' ? block.tool_use_id : '';
  const text = toolResultText(block.content);
  const recorded = builder.content.toolResponse(
    block.is_error === true ? { callId, result: '', error: text } : { callId, result: text },
  );
  if (!recorded) builder.skip(at, `tool_result for unknown tool_use id '${callId}'`);
}

/** A user-line block that the human sees as part of their message, if it is one. */
function humanBlock(block: Json, builder: SessionBuilder): ContentBlock | undefined {
  if (block.type === 'text' && typeof block.text === 'string') return textBlock(block.text);
  if (block.type === 'image') return imageBlock(block);
  builder.ignore(`user ${String(block.type)} block`);
  return undefined;
}

/**
 * A compact summary's metadata: its recorded time and `compactionStartedAt`, the time of the
 * chain's last message record before it (the compaction ran in between).
 */
function summaryMetadata(record: Json, previousTime: number | undefined): ContentMetadata {
  const timestamp = recordedTime(record.timestamp);
  return {
    isSummary: true,
    ...(timestamp === undefined ? {} : { timestamp }),
    ...(previousTime === undefined ? {} : { compactionStartedAt: previousTime }),
  };
}

function onUser(
  record: Json,
  at: RecordLocation,
  builder: SessionBuilder,
  previousTime: number | undefined,
): void {
  const message = isParams(record.message) ? record.message : undefined;
  if (
    message === undefined ||
    (!Array.isArray(message.content) && typeof message.content !== 'string')
  ) {
    builder.skip(at, 'user line without message.content');
    return;
  }
  const human: ContentBlock[] = [];
  for (const block of blocksOf(message.content)) {
    if (!isParams(block)) continue;
    if (block.type === 'tool_result') onToolResult(block, at, builder);
    else {
      const shown = humanBlock(block, builder);
      if (shown) human.push(shown);
    }
  }
  if (human.length > 0) {
    builder.content.human(
      human,
      record.isCompactSummary === true ? summaryMetadata(record, previousTime) : undefined,
    );
  }
}

/** One record of the file and where it was, or why it could not be read. */
type ClaudeRecord =
  | { readonly kind: 'object'; readonly at: RecordLocation; readonly value: Json }
  | { readonly kind: 'invalid'; readonly at: RecordLocation; readonly reason: string };

/** The main chain and the sidechain of one file, each into its own builder. */
class ChainSplitter {
  private readonly main: SessionBuilder;
  private readonly side: SessionBuilder;
  private mainMessages = 0;
  private sideMessages = 0;
  /** Recorded time of each chain's last message record. */
  private readonly lastTime: { main?: number; side?: number } = {};

  constructor(given: ImportSource) {
    const source = { ...given, includeThinking: given.includeThinking ?? true };
    this.main = new SessionBuilder(source, 'claude-code');
    this.side = new SessionBuilder(source, 'claude-code');
    this.main.countRecorded();
    this.side.countRecorded();
  }

  add(record: ClaudeRecord): void {
    if (record.kind === 'invalid') {
      for (const builder of [this.main, this.side]) builder.skip(record.at, record.reason);
      return;
    }
    const { value, at } = record;
    const type = value.type;
    if (type !== 'user' && type !== 'assistant') {
      const reason = NON_MESSAGE_TYPES.has(String(type))
        ? `${String(type)} line`
        : 'unknown line type';
      for (const builder of [this.main, this.side]) builder.ignore(reason);
      return;
    }
    const sidechain = value.isSidechain === true;
    if (sidechain) this.sideMessages += 1;
    else this.mainMessages += 1;
    const builder = sidechain ? this.side : this.main;
    builder.noteFacts({ sessionId: value.sessionId, workspaceRoot: value.cwd });
    const chain = sidechain ? 'side' : 'main';
    if (type === 'assistant') onAssistant(value, at, builder);
    else onUser(value, at, builder, this.lastTime[chain]);
    this.lastTime[chain] = recordedTime(value.timestamp) ?? this.lastTime[chain];
  }

  /** The main session when the file has one, else the subagent session. */
  build(): ImportedSession {
    if (this.mainMessages === 0) return this.side.build();
    if (this.sideMessages > 0) {
      this.main.ignore('sidechain (subagent) message inside a main session', this.sideMessages);
    }
    return this.main.build();
  }
}

function fromLine(parsed: ParsedLine): ClaudeRecord {
  return parsed.kind === 'invalid'
    ? { kind: 'invalid', at: { line: parsed.line }, reason: parsed.reason }
    : { kind: 'object', at: { line: parsed.line }, value: parsed.value };
}

/** Imports one Claude Code session JSONL (a main session or a subagent `agent-*.jsonl`). */
export async function importClaudeCode(
  lines: LineSource,
  source: ImportSource,
): Promise<ImportedSession> {
  const splitter = new ChainSplitter(source);
  for await (const parsed of jsonObjectLines(lines)) splitter.add(fromLine(parsed));
  return splitter.build();
}

/** Imports one Claude Code session held as one JSON array of its records (`logs/chat.json`). */
export function importClaudeCodeRecords(
  records: readonly unknown[],
  source: ImportSource,
): ImportedSession {
  const splitter = new ChainSplitter(source);
  records.forEach((value, i) => {
    const at = { path: `$[${i}]` };
    splitter.add(
      isParams(value)
        ? { kind: 'object', at, value }
        : { kind: 'invalid', at, reason: 'expected a JSON object' },
    );
  });
  return splitter.build();
}
