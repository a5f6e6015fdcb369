/**
 * Claude Code 2.x `attachment` records → what the model is sent with the next message. Claude
 * Code attaches context to the conversation as it goes: files it re-reads after its own
 * compaction or that the user named with `@`, files changed outside the session, task-list and
 * skill reminders, tool-list changes, a date change, and prompts the user queued while the agent
 * worked. Each is sent to the model as part of a user turn: the client's context inside a
 * `<system-reminder>` element, a queued prompt as the user's own words. The wording here is
 * Dense's; the payload (file text, snippet, list) is the recorded one, so the tokens a replay
 * counts for it are close to what the client sent. Pure.
 */
import { textBlock, type ContentBlock } from '../../services/history/IContent.js';
import { isParams } from '../toolAliases.js';

type Json = Readonly<Record<string, unknown>>;

export type AttachmentContent =
  | {
      readonly kind: 'context';
      /** The attachment type, e.g. `file`. */
      readonly type: string;
      readonly blocks: readonly ContentBlock[];
    }
  | { readonly kind: 'prompt'; readonly blocks: readonly ContentBlock[] }
  | { readonly kind: 'ignored'; readonly reason: string };

const text = (value: unknown): string | undefined =>
  typeof value === 'string' && value !== '' ? value : undefined;

/** A file's text as the Read tool shows it: each line with its number. */
export function numberedLines(content: string, startLine = 1): string {
  return content
    .split('\n')
    .map((line, i) => `${String(startLine + i).padStart(6)}\t${line}`)
    .join('\n');
}

function reminder(body: string): readonly ContentBlock[] {
  return [textBlock(`<system-reminder>\n${body}\n</system-reminder>`)];
}

function fileBody(attachment: Json): string | undefined {
  const content = isParams(attachment.content) ? attachment.content : {};
  const file = isParams(content.file) ? content.file : {};
  const body = text(file.content) ?? text(content.text);
  if (body === undefined) return undefined;
  const name = text(file.filePath) ?? text(attachment.filename) ?? 'a file';
  const start = typeof file.startLine === 'number' ? file.startLine : 1;
  return `Contents of ${name} (read for this conversation):\n${numberedLines(body, start)}`;
}

function listBody(label: string, items: unknown): string | undefined {
  if (typeof items === 'string') return text(items) && `${label}\n${items}`;
  if (!Array.isArray(items)) return undefined;
  const lines = items.map((item) => (typeof item === 'string' ? item : JSON.stringify(item)));
  return `${label}${lines.length === 0 ? ' (none)' : `\n${lines.join('\n')}`}`;
}

function contextBody(type: string, attachment: Json): string | undefined {
  switch (type) {
    case 'file':
      return fileBody(attachment);
    case 'edited_text_file': {
      const snippet = text(attachment.snippet);
      const name = text(attachment.filename) ?? 'a file';
      return snippet && `${name} was changed outside this conversation. Changed lines:\n${snippet}`;
    }
    case 'task_reminder':
      return listBody('Reminder of the task list:', attachment.content);
    case 'skill_listing':
      return listBody('Skills available:', attachment.content);
    case 'deferred_tools_delta': {
      const added = listBody('Tools now available:', attachment.addedLines) ?? '';
      const removed = Array.isArray(attachment.removedNames) ? attachment.removedNames : [];
      return removed.length === 0 ? added : `${added}\nTools removed: ${removed.join(', ')}`;
    }
    case 'date_change': {
      const date = text(attachment.newDate);
      return date && `The date is now ${date}.`;
    }
    default:
      return undefined;
  }
}

/** What one attachment record sends to the model, or why it sends nothing readable. */
export function attachmentContent(record: Json): AttachmentContent {
  const attachment = isParams(record.attachment) ? record.attachment : {};
  const type = text(attachment.type) ?? 'untyped';
  if (type === 'queued_command') {
    const prompt = text(attachment.prompt);
    return prompt === undefined
      ? { kind: 'ignored', reason: 'attachment queued_command without a prompt' }
      : { kind: 'prompt', blocks: [textBlock(prompt)] };
  }
  const body = contextBody(type, attachment);
  return body === undefined
    ? { kind: 'ignored', reason: `attachment ${type} (not read)` }
    : { kind: 'context', type, blocks: reminder(body) };
}
