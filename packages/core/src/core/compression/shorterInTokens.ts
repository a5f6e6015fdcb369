/**
 * The one rule for putting something shorter in place of content it names (a reply at entry, a
 * pointer to a pruned result), in the CLI and in the proxy alike: the replacement is used only
 * when it costs the model strictly fewer tokens than what it replaces. Characters are no measure:
 * a call id or a recall id is a few dozen characters of many tokens, so a reply naming one can be
 * shorter in characters than a short output and still cost more.
 */
import { countO200kTokens } from '../../services/history/TokenCounter.js';

/** Whether a replacement of `replacement` tokens is worth writing in place of `original` tokens. */
export function isShorterInTokens(tokens: {
  readonly original: number;
  readonly replacement: number;
}): boolean {
  return tokens.replacement < tokens.original;
}

/** Originals longer than this are first counted up to a line break past it. */
const PREFIX_CHARS = 8192;

/**
 * A count of `original`'s tokens that decides the rule against `replacement` tokens: a prefix's
 * when that already holds more (counting a 250 KB re-read whole takes ~150 ms), else the whole's.
 */
function originalTokens(original: string, replacement: number): number {
  if (original.length <= 2 * PREFIX_CHARS) return countO200kTokens(original);
  // A line break followed by a non-space: no token spans it.
  const lineStart = /\n(?=\S)/g;
  lineStart.lastIndex = PREFIX_CHARS;
  const cut = lineStart.exec(original);
  if (cut === null) return countO200kTokens(original);
  // The pieces before the cut tokenize alike in the prefix and the whole; one token of slack.
  const prefix = countO200kTokens(original.slice(0, cut.index + 1)) - 1;
  return prefix > replacement ? prefix : countO200kTokens(original);
}

/**
 * `isShorterInTokens` on texts, counted with the o200k vocabulary (the CLI's default counter; the
 * proxy has no provider's). Pure.
 */
export function shorterInTokens(replacement: string, original: string): boolean {
  const replacementTokens = countO200kTokens(replacement);
  return isShorterInTokens({
    replacement: replacementTokens,
    original: originalTokens(original, replacementTokens),
  });
}
