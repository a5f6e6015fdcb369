/**
 * Helpers the classic strategies share: tool-call-safe split points (re-exported from
 * toolCallBoundary.ts) and the plain-text rendering of history that a summarizing model reads.
 */
import type { ContentBlock, IContent } from '../../services/history/IContent.js';

export {
  adjustForToolCallBoundary,
  safeSplitPoints,
  type SplitDirection,
} from './toolCallBoundary.js';

export interface SanitizeOptions {
  /**
   * Tool results (and tool-call parameters) longer than this many characters keep their first and
   * last halves with an omission marker between them. Default `DEFAULT_MAX_TOOL_TEXT_CHARS`.
   */
  readonly maxToolTextChars?: number;
}

/** About 4k tokens: enough for the summarizer to see what a tool did without the whole payload. */
export const DEFAULT_MAX_TOOL_TEXT_CHARS = 16_000;

function stringify(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === undefined) return '';
  try {
    return JSON.stringify(value) ?? `[${typeof value}]`;
  } catch {
    return '[unserializable value]';
  }
}

/** `text` cut to `max` characters: head and tail kept, the middle replaced by a marker. */
export function elideMiddle(text: string, max: number): string {
  if (text.length <= max) return text;
  const head = Math.ceil(max / 2);
  const tail = Math.floor(max / 2);
  const omitted = text.length - head - tail;
  return `${text.slice(0, head)}\n[… ${omitted} characters omitted …]\n${text.slice(text.length - tail)}`;
}

function renderMedia(block: Extract<ContentBlock, { type: 'media' }>): string {
  const name = block.filename === undefined ? '' : ` ${block.filename}`;
  const caption = block.caption === undefined ? '' : `: ${block.caption}`;
  return `[media ${block.mimeType}${name}${caption} — content not included]`;
}

function renderBlock(block: ContentBlock, max: number): string | undefined {
  switch (block.type) {
    case 'text':
      return block.text.trim() === '' ? undefined : block.text;
    case 'code':
      return `\`\`\`${block.language ?? ''}\n${block.code}\n\`\`\``;
    case 'tool_call':
      return `→ Tool call ${block.name} (id ${block.id}) with parameters: ${elideMiddle(stringify(block.parameters), max)}`;
    case 'tool_response': {
      const result = elideMiddle(stringify(block.result), max);
      if (block.error === undefined) {
        return `← Result of ${block.toolName} (id ${block.callId}):\n${result}`;
      }
      const partial = result === '' ? '' : `\n${result}`;
      return `← ${block.toolName} (id ${block.callId}) failed: ${elideMiddle(block.error, max)}${partial}`;
    }
    case 'media':
      return renderMedia(block);
    case 'thinking':
      return undefined;
  }
}

function speakerLabel(entry: IContent): string {
  switch (entry.speaker) {
    case 'human':
      return entry.metadata?.isSummary === true ? 'User (summary of earlier conversation)' : 'User';
    case 'ai':
      return 'Assistant';
    case 'tool':
      return 'Tool';
  }
}

/**
 * The history as readable plain text for a summarizing model: one `[Speaker]` section per entry,
 * tool calls as `→ Tool call <name> (id …) with parameters: <json>`, results as `← Result of …`
 * or `← <tool> (id …) failed: <error>`, media as a placeholder naming its type (never its data).
 * Thinking blocks are dropped: they are the model's scratch work, often signed or redacted, and
 * what they concluded shows in the text and calls that follow. Entries left with nothing to show
 * are skipped. Pure; never throws on odd tool parameters or results.
 */
export function sanitizeHistoryForCompression(
  history: readonly IContent[],
  options: SanitizeOptions = {},
): string {
  const max = Math.max(1, options.maxToolTextChars ?? DEFAULT_MAX_TOOL_TEXT_CHARS);
  const sections: string[] = [];
  for (const entry of history) {
    const parts: string[] = [];
    for (const block of entry.blocks) {
      const rendered = renderBlock(block, max);
      if (rendered !== undefined) parts.push(rendered);
    }
    if (parts.length > 0) sections.push(`[${speakerLabel(entry)}]\n${parts.join('\n')}`);
  }
  return sections.join('\n\n');
}
