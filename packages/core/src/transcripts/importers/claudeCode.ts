/**
 * Claude Code session records → IContent[], from the session JSONL or from the same records as one
 * JSON array (`logs/chat.json`). Assistant records sharing `message.id` are one reply and become
 * one AI entry; `tool_result` blocks in user records become tool entries (`is_error` → error),
 * matched to their call by id whatever the order they were written in (2.1.x sometimes writes a
 * result before the line holding its call); `attachment` records become the context they send
 * (claudeCodeAttachment.ts); thinking blocks are kept by default, since Claude Code sends them
 * back and they fill the context; titles, snapshots, progress and other bookkeeping lines are
 * ignored with counted reasons (claudeCodeRecordTypes.ts), and so is history a resumed session
 * copied (findResumedCopies.ts). A file with any main-chain (`isSidechain: false`) message is a
 * main session and its sidechain messages (subagents, the `Warmup` exchange Claude Code 2.x
 * records first) are ignored; a file of sidechain messages only is a subagent transcript, or the
 * client's own compaction call when its agent id says `acompact-`.
 */
import {
  textBlock,
  toolCallBlock,
  type ContentBlock,
  type ContentMetadata,
  type MediaBlock,
} from '../../services/history/IContent.js';
import { jsonObjectLines, type LineSource, type ParsedLine } from '../lineSource.js';
import type { SessionBuilder, ImportSource } from '../SessionBuilder.js';
import { isParams, mapToolCall } from '../toolAliases.js';
import { recordedTime } from '../jsonValues.js';
import type { ImportedSession, RecordLocation } from '../types.js';
import { blocksOf, recordBlocks, toolUseIds } from './claudeCodeBlocks.js';
import { ClaudeChain } from './ClaudeChain.js';
import { CLAUDE_CODE_MESSAGE_TYPES, ignoredLineReason } from './claudeCodeRecordTypes.js';
import { compactionTriggers, type CompactionTrigger } from './compactionTriggers.js';
import { findResumedCopies } from './findResumedCopies.js';
import { SKILL_TEXT_ATTACHMENT } from '../../services/history/clientContext.js';

type Json = Readonly<Record<string, unknown>>;

/** Counted reason for history a resumed session wrote again. */
export const RESUMED_COPY_REASON = 'history copied by a resumed session';
/** Agent id prefix of the client's own compaction call (`subagents/agent-acompact-*.jsonl`). */
const COMPACTION_AGENT = 'acompact-';

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
  builder.recordToolCalls(recordBlocks(record).filter((block) => block.type === 'tool_use').length);
  builder.noteFacts({ model: message.model });
  const blocks = blocksOf(message.content)
    .map((block) => assistantBlock(block, builder))
    .filter((block): block is ContentBlock => block !== undefined);
  builder.content.ai(blocks, {
    ...(groupKey === undefined ? {} : { groupKey }),
    metadata: assistantMetadata(record, message),
  });
}

function imageBlock(block: Json): MediaBlock | undefined {
  const source = isParams(block.source) ? block.source : undefined;
  if (source?.type !== 'base64' || typeof source.data !== 'string') return undefined;
  const mimeType = typeof source.media_type === 'string' ? source.media_type : 'image/png';
  return { type: 'media', mimeType, data: source.data, encoding: 'base64' };
}

/** A user-line block that the human sees as part of their message, if it is one. */
function humanBlock(block: Json, builder: SessionBuilder): ContentBlock | undefined {
  if (block.type === 'text' && typeof block.text === 'string') return textBlock(block.text);
  if (block.type === 'image') return imageBlock(block);
  builder.ignore(`user ${String(block.type)} block`);
  return undefined;
}

/**
 * A compact summary's metadata: its recorded time, `compactionStartedAt`, the time of the
 * chain's last message record before it (the compaction ran in between), and `agentVersion`, the
 * Claude Code version that wrote it (what it restores after a compaction depends on it), and
 * `compactionTrigger` where the file says who asked for it (compactionTriggers.ts).
 */
function summaryMetadata(
  record: Json,
  previousTime: number | undefined,
  trigger: CompactionTrigger | undefined,
): ContentMetadata {
  const timestamp = recordedTime(record.timestamp);
  return {
    isSummary: true,
    ...(trigger === undefined ? {} : { compactionTrigger: trigger }),
    ...(timestamp === undefined ? {} : { timestamp }),
    ...(previousTime === undefined ? {} : { compactionStartedAt: previousTime }),
    ...(typeof record.version === 'string' ? { agentVersion: record.version } : {}),
  };
}

/**
 * A user record's metadata: a compact summary's, or the mark of a skill's text (a meta record
 * naming the tool call that loaded it), else none.
 */
function userMetadata(
  record: Json,
  chain: ClaudeChain,
  trigger: CompactionTrigger | undefined,
): ContentMetadata | undefined {
  if (record.isCompactSummary === true) return summaryMetadata(record, chain.lastTime, trigger);
  if (record.isMeta === true && typeof record.sourceToolUseID === 'string') {
    return { attachment: SKILL_TEXT_ATTACHMENT };
  }
  return undefined;
}

function onUser(
  record: Json,
  at: RecordLocation,
  chain: ClaudeChain,
  trigger: CompactionTrigger | undefined,
): void {
  const { builder } = chain;
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
    if (block.type === 'tool_result') chain.toolResult(block, at, record);
    else {
      const shown = humanBlock(block, builder);
      if (shown) human.push(shown);
    }
  }
  if (human.length > 0) builder.content.human(human, userMetadata(record, chain, trigger));
}

/** One record of the file and where it was, or why it could not be read. */
type ClaudeRecord =
  | { readonly kind: 'object'; readonly at: RecordLocation; readonly value: Json }
  | { readonly kind: 'invalid'; readonly at: RecordLocation; readonly reason: string };

/** The main chain and the sidechain of one file, each into its own builder. */
class ChainSplitter {
  private readonly main: ClaudeChain;
  private readonly side: ClaudeChain;
  private compactionAgent = false;

  constructor(
    given: ImportSource,
    private readonly triggers: ReadonlyMap<Json, CompactionTrigger>,
  ) {
    const source = { ...given, includeThinking: given.includeThinking ?? true };
    this.main = new ClaudeChain(source);
    this.side = new ClaudeChain(source);
  }

  private forBoth(action: (builder: SessionBuilder) => void): void {
    for (const chain of [this.main, this.side]) action(chain.builder);
  }

  add(record: ClaudeRecord, copied = false): void {
    if (record.kind === 'invalid') {
      this.forBoth((builder) => builder.skip(record.at, record.reason));
      return;
    }
    const { value, at } = record;
    const type = String(value.type);
    if (!CLAUDE_CODE_MESSAGE_TYPES.has(type)) {
      const reason = ignoredLineReason(value.type, value.subtype);
      this.forBoth((builder) =>
        reason === undefined ? builder.ignoreUnknown('line type') : builder.ignore(reason),
      );
      return;
    }
    const sidechain = value.isSidechain === true;
    const chain = sidechain ? this.side : this.main;
    if (copied) {
      chain.builder.ignore(`${RESUMED_COPY_REASON} (${type} line)`);
      return;
    }
    chain.messages += 1;
    if (
      sidechain &&
      typeof value.agentId === 'string' &&
      value.agentId.startsWith(COMPACTION_AGENT)
    ) {
      this.compactionAgent = true;
    }
    chain.builder.noteFacts({ sessionId: value.sessionId, workspaceRoot: value.cwd });
    if (type === 'assistant') {
      onAssistant(value, at, chain.builder);
      chain.callsArrived(toolUseIds(value));
    } else if (type === 'user') onUser(value, at, chain, this.triggers.get(value));
    else if (!chain.holdsAttachment(value)) chain.attachment(value);
    chain.lastTime = recordedTime(value.timestamp) ?? chain.lastTime;
  }

  /** The main session when the file has one, else the subagent (or compaction call) session. */
  build(): ImportedSession {
    if (this.main.messages === 0) {
      this.side.builder.role = this.compactionAgent ? 'compaction-call' : 'subagent';
      return this.side.build();
    }
    if (this.side.messages > 0) {
      this.main.builder.ignore(
        'sidechain (subagent) message inside a main session',
        this.side.messages,
      );
    }
    return this.main.build();
  }
}

function fromLine(parsed: ParsedLine): ClaudeRecord {
  return parsed.kind === 'invalid'
    ? { kind: 'invalid', at: { line: parsed.line }, reason: parsed.reason }
    : { kind: 'object', at: { line: parsed.line }, value: parsed.value };
}

/** Imports a file's records in order, leaving out the history a resumed session copied. */
function importRecords(records: readonly ClaudeRecord[], source: ImportSource): ImportedSession {
  const objects = records.filter(
    (record): record is Extract<ClaudeRecord, { kind: 'object' }> => record.kind === 'object',
  );
  const values = objects.map((record) => record.value);
  const copies = findResumedCopies(values);
  const copied = new Set([...copies].map((index) => objects[index]));
  const splitter = new ChainSplitter(source, compactionTriggers(values));
  for (const record of records) {
    splitter.add(record, record.kind === 'object' && copied.has(record));
  }
  return splitter.build();
}

/** Imports one Claude Code session JSONL (a main session or a subagent `agent-*.jsonl`). */
export async function importClaudeCode(
  lines: LineSource,
  source: ImportSource,
): Promise<ImportedSession> {
  const records: ClaudeRecord[] = [];
  for await (const parsed of jsonObjectLines(lines)) records.push(fromLine(parsed));
  return importRecords(records, source);
}

/** Imports one Claude Code session held as one JSON array of its records (`logs/chat.json`). */
export function importClaudeCodeRecords(
  records: readonly unknown[],
  source: ImportSource,
): ImportedSession {
  return importRecords(
    records.map((value, i): ClaudeRecord => {
      const at = { path: `$[${i}]` };
      return isParams(value)
        ? { kind: 'object', at, value }
        : { kind: 'invalid', at, reason: 'expected a JSON object' };
    }),
    source,
  );
}
