/**
 * Records a resumed Claude Code session copied from earlier in the same file. Resuming (or
 * continuing) a session can write the history it loaded again, with new uuids but the same
 * provider message ids, tool ids and texts, all stamped with one time: the moment of the resume.
 * Replayed as recorded, those copies would count every earlier call twice. A record is a copy
 * when:
 * - an assistant line repeats a provider message id whose reply a later human turn had already
 *   closed, or repeats a tool_use id already seen;
 * - a user or attachment line carries the same recorded time as such an assistant copy and says
 *   nothing new (each text block, or the attachment, appeared earlier in the file).
 * Tool results that answer a call a second time are left to the importer (it sees the answers).
 * Pure: returns the positions (in the given order) of the copies.
 */
import { messageId, textsOf, toolUseIds } from './claudeCodeBlocks.js';

type Json = Readonly<Record<string, unknown>>;

function stamp(record: Json): string | undefined {
  return typeof record.timestamp === 'string' ? record.timestamp : undefined;
}

/** Assistant copies, and the recorded times they carry. */
function assistantCopies(records: readonly Json[]): {
  readonly copies: Set<number>;
  readonly stamps: ReadonlySet<string>;
} {
  const copies = new Set<number>();
  const stamps = new Set<string>();
  /** Message ids whose reply a human turn has closed since their last piece. */
  const closed = new Set<string>();
  const open = new Set<string>();
  const toolIds = new Set<string>();
  records.forEach((record, index) => {
    if (record.type === 'user' && textsOf(record).length > 0) {
      for (const id of open) closed.add(id);
      open.clear();
      return;
    }
    if (record.type !== 'assistant') return;
    const id = messageId(record);
    const calls = toolUseIds(record);
    const repeated = (id !== undefined && closed.has(id)) || calls.some((c) => toolIds.has(c));
    if (repeated) {
      copies.add(index);
      const at = stamp(record);
      if (at !== undefined) stamps.add(at);
      return;
    }
    for (const call of calls) toolIds.add(call);
    if (id !== undefined) open.add(id);
  });
  return { copies, stamps };
}

export function findResumedCopies(records: readonly Json[]): ReadonlySet<number> {
  const { copies, stamps } = assistantCopies(records);
  if (stamps.size === 0) return copies;
  const texts = new Set<string>();
  const attachments = new Set<string>();
  records.forEach((record, index) => {
    if (copies.has(index)) return;
    const at = stamp(record);
    const copyTime = at !== undefined && stamps.has(at);
    if (record.type === 'user') {
      const said = textsOf(record);
      if (copyTime && said.length > 0 && said.every((t) => texts.has(t))) copies.add(index);
      else for (const t of said) texts.add(t);
    } else if (record.type === 'attachment') {
      const key = JSON.stringify(record.attachment);
      if (copyTime && attachments.has(key)) copies.add(index);
      else attachments.add(key);
    }
  });
  return copies;
}
