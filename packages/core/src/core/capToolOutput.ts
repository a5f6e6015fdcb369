/**
 * The size cap on one tool output: an output over the cap is shown to the model as its first and
 * last lines around one notice line that says how much was left out and names the recall id that
 * returns the whole output. The caller keeps the original (`KeptOriginal`) where the recall store
 * finds it. Deterministic: the same output, cap and token counter give the same text.
 */
import type { ToolResponseBlock } from '../services/history/IContent.js';
import { isDensityReply, replyText } from './compression/density/entry/densityReply.js';
import { originalResponseText } from './compression/recallPointers.js';
import { recallIdOfKept, type KeptOriginal } from '../services/recall/keptOriginals.js';

export interface CapToolOutputInput {
  readonly block: ToolResponseBlock;
  /** The most tokens the output shown to the model may take (at least 1). */
  readonly capTokens: number;
  /** Tokens in a text, with the session's counter. May throw (propagated). */
  readonly countTokens: (text: string) => Promise<number>;
  /** The output as the tool returned it, when `block` already is a shortened copy of it. */
  readonly original?: KeptOriginal;
}

export type CapToolOutputOutcome =
  | { readonly kind: 'within-cap' }
  | {
      readonly kind: 'capped';
      readonly block: ToolResponseBlock;
      /** The whole output, for the recall store. */
      readonly original: KeptOriginal;
      /** Tokens of the text shown (the cap, unless the notice alone is larger). */
      readonly shownTokens: number;
    };

/** Budget rounds before the smallest cut is taken as is. */
const MAX_ROUNDS = 8;

/** Whether the text to cut is the error message (a failed call that returned no output). */
function cutsError(block: ToolResponseBlock): boolean {
  return (block.result === '' || block.result == null) && block.error !== undefined;
}

function lineCount(text: string): number {
  if (text === '') return 0;
  let lines = 1;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) lines++;
  return text.endsWith('\n') ? lines - 1 : lines;
}

/** Where the shown head ends and the shown tail starts: at line breaks when a whole line fits. */
function cutPoints(
  text: string,
  budget: number,
): { readonly headEnd: number; readonly tailStart: number } {
  const headBudget = Math.ceil(budget / 2);
  const tailBudget = budget - headBudget;
  const lastBreak = headBudget > 0 ? text.lastIndexOf('\n', headBudget - 1) : -1;
  const headEnd = lastBreak >= 0 ? lastBreak + 1 : headBudget;
  const tailFrom = text.length - tailBudget;
  const nextBreak = tailBudget > 0 ? text.indexOf('\n', tailFrom - 1) : -1;
  const lineStart = nextBreak >= 0 && nextBreak + 1 < text.length ? nextBreak + 1 : tailFrom;
  const tailStart = Math.max(headEnd, tailBudget > 0 ? lineStart : text.length);
  return { headEnd, tailStart };
}

/**
 * `text` cut to about `budget` characters: head, a notice line, tail. The notice counts the
 * characters left out and the lines not shown in full, and names `recallId`.
 */
export function shortenOutput(text: string, budget: number, recallId: string): string {
  const { headEnd, tailStart } = cutPoints(text, Math.max(0, budget));
  const head = text.slice(0, headEnd);
  const tail = text.slice(tailStart);
  const totalLines = lineCount(text);
  const wholeHead = head.endsWith('\n') ? lineCount(head) : Math.max(0, lineCount(head) - 1);
  const tailAtLineStart = tailStart === 0 || text[tailStart - 1] === '\n';
  const wholeTail = tailAtLineStart ? lineCount(tail) : Math.max(0, lineCount(tail) - 1);
  const elidedLines = Math.max(0, totalLines - wholeHead - wholeTail);
  const notice =
    `[… ${tailStart - headEnd} of ${text.length} chars elided here ` +
    `(${elidedLines} of ${totalLines} lines not shown in full): the output is over the size cap ` +
    `for one tool result; recall id ${recallId} returns it whole …]`;
  const before = head === '' || head.endsWith('\n') ? head : `${head}\n`;
  return tail === '' ? `${before}${notice}` : `${before}${notice}\n${tail}`;
}

/** Reads back the recall id of the notice line `shortenOutput` writes. */
const NOTICE_ID = /for one tool result; recall id (r[0-9a-f]{10}) returns it whole …\]$/m;

/** The recall id a notice line in `text` names (the first such line), if any. */
export function recallIdNamedByNotice(text: string): string | undefined {
  return NOTICE_ID.exec(text)?.[1];
}

function withShown(block: ToolResponseBlock, shown: string): ToolResponseBlock {
  const { error, isComplete } = block;
  const base = { type: 'tool_response', callId: block.callId, toolName: block.toolName } as const;
  const extra = isComplete === undefined ? {} : { isComplete };
  if (cutsError(block)) return { ...base, result: '', error: shown, ...extra };
  return { ...base, result: shown, ...(error === undefined ? {} : { error }), ...extra };
}

function shownText(block: ToolResponseBlock, result: string): string {
  return cutsError(block) || block.error === undefined ? result : `${result}\n${block.error}`;
}

/**
 * Caps one tool output at `capTokens`. Within the cap (or `original` given and the block already
 * within it): `within-cap`. Otherwise the shortened block, cut from the original: the character
 * budget starts at 4 characters per token and shrinks in proportion to the measured overshoot,
 * at most `MAX_ROUNDS` times (then the smallest cut stands). Errors from `countTokens` propagate.
 */
export async function capToolOutput(input: CapToolOutputInput): Promise<CapToolOutputOutcome> {
  const { block, countTokens } = input;
  const capTokens = Math.max(1, Math.floor(input.capTokens));
  // What the model is shown now: a density reply shows its short reply, not the output it stands for.
  const current = cutsError(block)
    ? (block.error ?? '')
    : isDensityReply(block)
      ? replyText(block)
      : originalResponseText(block);
  const currentText = shownText(block, current);
  // A token is at least one UTF-8 byte, so a text with no more bytes than the cap fits it.
  if (Buffer.byteLength(currentText, 'utf8') <= capTokens) return { kind: 'within-cap' };
  if ((await countTokens(currentText)) <= capTokens) return { kind: 'within-cap' };
  const original: KeptOriginal = input.original ?? {
    callId: block.callId,
    toolName: block.toolName,
    text: originalResponseText(block),
  };
  const source = original.text;
  const id = recallIdOfKept(original);
  let budget = Math.min(source.length, capTokens * 4);
  let shown = shortenOutput(source, budget, id);
  let shownTokens = await countTokens(shownText(block, shown));
  for (let round = 1; round < MAX_ROUNDS && shownTokens > capTokens && budget > 0; round++) {
    budget = Math.floor((budget * capTokens * 0.95) / shownTokens);
    shown = shortenOutput(source, budget, id);
    shownTokens = await countTokens(shownText(block, shown));
  }
  return { kind: 'capped', block: withShown(block, shown), original, shownTokens };
}

/** `compression.toolOutputCap` × the context window, in whole tokens (at least 1). */
export function toolOutputCapTokens(input: {
  /** The `compression.toolOutputCap` fraction. */
  readonly toolOutputCap: number;
  /** The context window in tokens. */
  readonly contextLimit: number;
}): number {
  return Math.max(1, Math.floor(input.toolOutputCap * input.contextLimit));
}
