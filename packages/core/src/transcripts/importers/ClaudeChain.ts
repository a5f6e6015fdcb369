/**
 * One chain (main or side) of a Claude Code file being imported: its builder, and the tool results
 * written before their calls. A result waits until the line holding its call arrives and is
 * placed right after it, with the attachments the client wrote after that result (their
 * `parentUuid` names it); a result answering a call a second time (a resumed copy) is counted,
 * not imported; a result whose call never comes is skipped at the end.
 */
import { SessionBuilder, type ImportSource } from '../SessionBuilder.js';
import { isParams } from '../toolAliases.js';
import type { ImportedSession, RecordLocation } from '../types.js';
import { attachmentContent } from './claudeCodeAttachment.js';
import { blocksOf } from './claudeCodeBlocks.js';

type Json = Readonly<Record<string, unknown>>;

/** Reason a tool result is skipped when no line of the session holds its call. */
export const UNKNOWN_CALL_REASON = 'tool_result for unknown tool_use id';
/** Counted reason for a second answer to a call already answered (a resumed copy). */
const ANSWERED_TWICE_REASON = 'tool_result answering a call a second time';

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

/** A tool result waiting for its call, with the attachments written after it. */
interface PendingResult {
  readonly at: RecordLocation;
  readonly block: Json;
  readonly attachments: Json[];
}

/**
 * One chain's (main or side) builder, with the tool results written before their calls: a result
 * waits until the line holding its call arrives and is placed right after it, together with the
 * attachments the client wrote after that result (their `parentUuid` names it).
 */
export class ClaudeChain {
  readonly builder: SessionBuilder;
  messages = 0;
  /** Recorded time of the chain's last message record. */
  lastTime: number | undefined;
  private readonly pending = new Map<string, PendingResult>();
  /** uuid of a waiting result's record (or of an attachment after it) → the call id it waits on. */
  private readonly waitingUuids = new Map<string, string>();

  constructor(source: ImportSource) {
    this.builder = new SessionBuilder(source, 'claude-code');
    this.builder.countRecorded();
  }

  toolResult(block: Json, at: RecordLocation, record: Json): void {
    const callId = typeof block.tool_use_id === 'string' ? block.tool_use_id : '';
    const { content } = this.builder;
    if (content.hasCall(callId) && !content.awaitsAnswer(callId)) {
      this.builder.ignore(ANSWERED_TWICE_REASON);
      return;
    }
    if (this.answer(block)) return;
    this.pending.set(callId, { at, block, attachments: [] });
    if (typeof record.uuid === 'string') this.waitingUuids.set(record.uuid, callId);
  }

  /** Whether an attachment follows a waiting result (and is kept to go after it). */
  holdsAttachment(record: Json): boolean {
    const callId =
      typeof record.parentUuid === 'string' ? this.waitingUuids.get(record.parentUuid) : undefined;
    const waiting = callId === undefined ? undefined : this.pending.get(callId);
    if (callId === undefined || waiting === undefined) return false;
    waiting.attachments.push(record);
    if (typeof record.uuid === 'string') this.waitingUuids.set(record.uuid, callId);
    return true;
  }

  /** After an assistant line: the results that waited for the calls it holds. */
  callsArrived(callIds: readonly string[]): void {
    for (const callId of callIds) {
      const waiting = this.pending.get(callId);
      if (waiting === undefined || !this.answer(waiting.block)) continue;
      this.pending.delete(callId);
      for (const attachment of waiting.attachments) this.attachment(attachment);
    }
  }

  private answer(block: Json): boolean {
    const callId = typeof block.tool_use_id === 'string' ? block.tool_use_id : '';
    const text = toolResultText(block.content);
    return this.builder.content.toolResponse(
      block.is_error === true ? { callId, result: '', error: text } : { callId, result: text },
    );
  }

  /** An attachment line: the context it sends, or a count of what was not read. */
  attachment(record: Json): void {
    const content = attachmentContent(record);
    if (content.kind === 'ignored') this.builder.ignore(content.reason);
    else if (content.kind === 'prompt') this.builder.content.human([...content.blocks]);
    else this.builder.content.human([...content.blocks], { attachment: content.type });
  }

  build(): ImportedSession {
    for (const [callId, waiting] of this.pending) {
      this.builder.skipOrphanResult(waiting.at, `${UNKNOWN_CALL_REASON} '${callId}'`);
      for (const attachment of waiting.attachments) this.attachment(attachment);
    }
    this.pending.clear();
    return this.builder.build();
  }
}
