/**
 * Token counting behind a small port. The default counts with the o200k BPE vocabulary
 * (gpt-tokenizer); `contentTokenText` decides what of an entry counts at all.
 */
import { createRequire } from 'node:module';
import type * as O200kModule from 'gpt-tokenizer/encoding/o200k_base';
import type { ContentBlock, IContent } from './IContent.js';

type O200k = typeof O200kModule;
let o200k: O200k | undefined;

/** The o200k vocabulary is loaded on the first count (~0.3 s), not when core is imported. */
function encoder(): O200k {
  o200k ??= createRequire(import.meta.url)('gpt-tokenizer/encoding/o200k_base') as O200k;
  return o200k;
}

export interface TokenCounter {
  /** Tokens in `text`. May be async (a provider's count endpoint) and may throw. */
  countText(text: string): number | Promise<number>;
}

/**
 * BPE merging is quadratic in the length of a run without whitespace (a 20k-character minified
 * line or base64 blob takes hundreds of milliseconds). Runs longer than this are counted in chunks
 * of this size; the count changes by at most a token per chunk boundary.
 */
export const MAX_RUN_CHARS = 1000;
const LONG_RUN = new RegExp(`\\S{${MAX_RUN_CHARS + 1},}`, 'g');
const NO_SPECIAL_TOKENS = { disallowedSpecial: new Set<string>() };

function countPlain(text: string): number {
  return text.length === 0 ? 0 : encoder().countTokens(text, NO_SPECIAL_TOKENS);
}

/** Counts o200k tokens; long whitespace-free runs are split first (see MAX_RUN_CHARS). */
export function countO200kTokens(text: string): number {
  let total = 0;
  let last = 0;
  for (const match of text.matchAll(LONG_RUN)) {
    total += countPlain(text.slice(last, match.index));
    const run = match[0];
    for (let start = 0; start < run.length; start += MAX_RUN_CHARS) {
      total += countPlain(run.slice(start, start + MAX_RUN_CHARS));
    }
    last = match.index + run.length;
  }
  return total + countPlain(text.slice(last));
}

export const o200kTokenCounter: TokenCounter = { countText: countO200kTokens };

/** A cheap estimate (characters / 4), for callers that must not pay for BPE. */
export const charEstimateTokenCounter: TokenCounter = {
  countText: (text) => Math.ceil(text.length / 4),
};

function stringifyValue(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === undefined) return '';
  try {
    return JSON.stringify(value) ?? '';
  } catch {
    return '[unserializable value]';
  }
}

function blockTokenText(block: ContentBlock): string {
  switch (block.type) {
    case 'text':
      return block.text;
    case 'tool_call':
      return `${block.name} ${stringifyValue(block.parameters)}`;
    case 'tool_response':
      return block.error === undefined
        ? stringifyValue(block.result)
        : `${stringifyValue(block.result)}\n${block.error}`;
    case 'thinking':
      return block.thought;
    case 'code':
      return block.code;
    case 'media':
      return block.caption ?? '';
  }
}

/**
 * The text of an entry that costs tokens: text, tool-call name and parameters as JSON, tool
 * results and errors, thinking, code, and media captions. Metadata never counts.
 */
export function contentTokenText(content: IContent): string {
  return content.blocks.map(blockTokenText).join('\n');
}
