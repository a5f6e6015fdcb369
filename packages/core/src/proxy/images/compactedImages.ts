/**
 * What a compaction summary keeps of the images in the turns it replaces: one trace line per
 * image where the summary lists that turn (`[image: image/png, 1280×800, recall id r…]`), the
 * image's original under that recall id, and for a tool result the decision history could not
 * hold (its content has images) the content itself as the result's original, so its recall id
 * gives the image back rather than a placeholder. Pure; never throws.
 */
import { originalResponseText, recallIdOfText } from '../../core/compression/recallPointers.js';
import type { IContent, ToolResponseBlock } from '../../services/history/IContent.js';
import type { RecallEntry } from '../../recall/planArchiveWrite.js';
import { imagePartSize, imagePartsIn, type ImagePart } from './imageParts.js';

interface Line {
  readonly text: string;
}

export interface CompactedImages {
  /** Each removed message's summary lines (one list per message), its images' traces after them. */
  readonly withTraces: <T extends Line>(linesPerMessage: readonly (readonly T[])[]) => (T | Line)[];
  /**
   * Each image's original: an Anthropic image block (JSON) holding its media type and its exact
   * base64, whatever wire it came on (`dense recall` reads one shape).
   */
  readonly recall: readonly RecallEntry[];
  /**
   * A removed tool result's original: its content as JSON when it holds images (the decision
   * history holds a placeholder for it), else `originalResponseText`.
   */
  readonly originalOf: (block: ToolResponseBlock) => string;
}

const NONE: CompactedImages = {
  withTraces: (linesPerMessage) => linesPerMessage.flat(),
  recall: [],
  originalOf: originalResponseText,
};

/** The recall id of an image: from its bytes, so the same image is one id wherever it was sent. */
export function recallIdOfImage(part: ImagePart): string {
  return recallIdOfText('image', part.base64);
}

/** `[image: image/png, 1280×800, recall id r…]`. */
export function imageTraceLine(part: ImagePart): string {
  const size = imagePartSize(part);
  const pixels = size === undefined ? 'size unknown' : `${size.width}×${size.height}`;
  return `[image: ${part.mediaType}, ${pixels}, recall id ${recallIdOfImage(part)}]`;
}

function parsedMessages(raw: string, count: number): unknown[] | undefined {
  if (!raw.includes('base64')) return undefined;
  try {
    const parsed: unknown = JSON.parse(`[${raw}]`);
    return Array.isArray(parsed) && parsed.length === count ? parsed : undefined;
  } catch {
    return undefined;
  }
}

const RESULT_ID_KEYS = ['tool_use_id', 'call_id', 'tool_call_id'] as const;
const RESULT_CONTENT_KEYS = ['content', 'output'] as const;

/** The content of the tool result for `callId` inside `message`, when it holds images. */
function resultContent(message: unknown, callId: string): unknown {
  let found: unknown;
  const visit = (node: unknown): void => {
    if (found !== undefined || typeof node !== 'object' || node === null) return;
    if (Array.isArray(node)) return node.forEach(visit);
    const record = node as Readonly<Record<string, unknown>>;
    if (RESULT_ID_KEYS.some((key) => record[key] === callId)) {
      const key = RESULT_CONTENT_KEYS.find((name) => record[name] !== undefined);
      const content = key === undefined ? undefined : record[key];
      if (imagePartsIn(content).length > 0) found = content;
      return;
    }
    Object.values(record).forEach(visit);
  };
  visit(message);
  return found;
}

/**
 * The images of the removed messages (`raw`: their raw JSON, comma-joined, one per entry of
 * `removed`).
 */
export function compactedImages(removed: readonly IContent[], raw: string): CompactedImages {
  const messages = parsedMessages(raw, removed.length);
  if (messages === undefined) return NONE;
  const recall = new Map<string, RecallEntry>();
  const lines = messages.map((message) =>
    imagePartsIn(message).map((part) => {
      const id = recallIdOfImage(part);
      if (!recall.has(id)) recall.set(id, { id, text: JSON.stringify(imagePartObject(part)) });
      return { text: imageTraceLine(part) };
    }),
  );
  const positions = new Map(removed.map((entry, index) => [entry, index]));
  const responses = new Map<ToolResponseBlock, string>();
  for (const [entry, index] of positions) {
    for (const block of entry.blocks) {
      if (block.type !== 'tool_response' || typeof block.result === 'string') continue;
      const content = resultContent(messages[index], block.callId);
      if (content !== undefined) responses.set(block, JSON.stringify(content));
    }
  }
  return {
    withTraces: (linesPerMessage) =>
      linesPerMessage.flatMap((own, index) => [...own, ...(lines[index] ?? [])]),
    recall: [...recall.values()],
    originalOf: (block) => responses.get(block) ?? originalResponseText(block),
  };
}

/** An image part as an Anthropic image block. */
function imagePartObject(part: ImagePart) {
  return {
    type: 'image',
    source: { type: 'base64', media_type: part.mediaType, data: part.base64 },
  };
}
