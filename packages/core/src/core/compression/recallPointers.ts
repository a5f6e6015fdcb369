/**
 * Recall by reference: every tool result or `@` inclusion that density or compression
 * removes, cuts or summarizes gets a stable id — a hash of the original content, so it is the same
 * after a resume and any store holding the original entries can resolve it — and the line left in
 * its place names that id. `pointerStyle: 'spec'` keeps the spec's literal pointer instead.
 */
import { createHash } from 'node:crypto';
import type { ToolResponseBlock } from '../../services/history/IContent.js';
import { PRUNED_POINTER } from './densityVocabulary.js';

/** `recall` names the recall id in every pointer (default); `spec` is REQ-HD-007.2 verbatim. */
export type PointerStyle = 'recall' | 'spec';

export const POINTER_STYLES: readonly PointerStyle[] = ['recall', 'spec'];

/** Why a result was pruned, as the pointer says it. */
export type PrunedReason = 'stale' | 'old';

const ID_HEX = 10;
const ID_SHAPE = new RegExp(`^r[0-9a-f]{${ID_HEX}}$`);

function hashId(parts: readonly string[]): string {
  const hash = createHash('sha256');
  for (const part of parts) hash.update(part).update('\u0000');
  return `r${hash.digest('hex').slice(0, ID_HEX)}`;
}

/** Whether `id` has the shape of a recall id (`r` and 10 hex digits). */
export function isRecallIdShape(id: string): boolean {
  return ID_SHAPE.test(id);
}

/**
 * The exact text `recall` returns for a tool response: the tool's own output a density reply
 * stands for; else a string result as is, anything else as JSON; a failed call without a result
 * gives its error message.
 */
export function originalResponseText(block: ToolResponseBlock): string {
  if (block.original !== undefined) return block.original;
  const { result } = block;
  if (typeof result === 'string') return result === '' && block.error ? block.error : result;
  if (result === undefined || result === null) return block.error ?? '';
  try {
    return JSON.stringify(result) ?? '';
  } catch {
    return '';
  }
}

/** Recall ids already computed, per block (blocks are immutable, so an id never goes stale). */
const responseIds = new WeakMap<ToolResponseBlock, string>();

/** The recall id of a tool response, from its call id, tool and original content. */
export function recallIdOfResponse(block: ToolResponseBlock): string {
  let id = responseIds.get(block);
  if (id === undefined) {
    id = hashId(['tool', block.callId, block.toolName, originalResponseText(block)]);
    responseIds.set(block, id);
  }
  return id;
}

/** The recall id of text of a kind that is neither a tool response nor an inclusion. */
export function recallIdOfText(kind: string, text: string): string {
  return hashId([kind, text]);
}

/** The recall id of one `@` inclusion span (markers included), from its text. */
export function recallIdOfInclusion(spanText: string): string {
  return hashId(['inclusion', spanText]);
}

const REASON_TEXT: Readonly<Record<PrunedReason, string>> = {
  stale: 'stale: file rewritten later',
  old: 'old result',
};

/**
 * What introduces a stale read's specifics in its pointer (`stalePointer.ts`): they
 * describe the file as it was read, before the write.
 */
export const STALE_SPECIFICS_LEAD = '. The version read then declared (name:line) or named: ';

const escaped = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

const POINTER_SHAPE = new RegExp(
  `^\\[Result pruned \\((?:${Object.values(REASON_TEXT).join('|')})\\) — recall id r[0-9a-f]{${ID_HEX}} to see the original(?:${escaped(STALE_SPECIFICS_LEAD)}.*)?\\]$`,
  's',
);

/** The line left in place of a pruned result: names the recall id, or the spec's pointer. */
export function prunedPointer(
  block: ToolResponseBlock,
  reason: PrunedReason,
  style: PointerStyle = 'spec',
): string {
  if (style === 'spec') return PRUNED_POINTER;
  return `[Result pruned (${REASON_TEXT[reason]}) — recall id ${recallIdOfResponse(block)} to see the original]`;
}

/** Whether a result already is a pruned pointer of either style (passes leave those alone). */
export function isPrunedPointer(result: unknown): boolean {
  return typeof result === 'string' && (result === PRUNED_POINTER || POINTER_SHAPE.test(result));
}

/** Whether a result is the pointer recency pruning leaves (either style). */
export function isRecencyPointer(result: unknown): boolean {
  return (
    typeof result === 'string' &&
    (result === PRUNED_POINTER ||
      (POINTER_SHAPE.test(result) && result.includes(`(${REASON_TEXT.old})`)))
  );
}

/** The suffix a summary line carries to name where its original is. */
export function recallSuffix(id: string): string {
  return `; recall id ${id}`;
}

const RECALL_ID_MENTION = /recall id (r[0-9a-f]{10})/g;

/** The recall ids a text names (`recall id r…`: pointers, summary lines, the artifact trail). */
export function recallIdsNamedIn(text: string): string[] {
  if (!text.includes('recall id')) return [];
  return [...text.matchAll(RECALL_ID_MENTION)].map((match) => match[1] as string);
}
