/**
 * Which of an assistant's thinking blocks a provider keeps in the context of a request. Claude
 * models before Opus 4.5 (Sonnet 4.5 and Haiku 4.5 included) drop the thinking of earlier
 * assistant turns: it is neither seen nor billed as input; only the current turn's thinking (the
 * tool-use loop since the last user message) counts. From Opus 4.5 on, and for every Claude model
 * of a later version, all thinking sent back stays in the context. Other providers are taken to
 * keep what they are sent. Pure.
 */
import type { IContent } from '../services/history/IContent.js';

interface ClaudeVersion {
  readonly family: string;
  readonly major: number;
  readonly minor: number;
}

/** A minor version has one or two digits; a longer number is a date suffix. */
function minorOf(part: string | undefined): number {
  return part !== undefined && /^\d{1,2}$/.test(part) ? Number(part) : 0;
}

/** `claude-opus-4-1-20250805`, `claude-sonnet-4-20250514`, `claude-3-7-sonnet-20250219`. */
function claudeVersion(model: string): ClaudeVersion | undefined {
  const name = model.trim().toLowerCase();
  const bare = name.slice(name.lastIndexOf('/') + 1);
  // Bedrock and Vertex ids put a region or vendor before it: `us.anthropic.claude-sonnet-4-…`.
  const all = bare.split(/[-.@]/);
  const at = all.indexOf('claude');
  if (at < 0) return undefined;
  const parts = all.slice(at);
  const familyFirst = /^[a-z]+$/.test(parts[1] ?? '');
  const family = familyFirst
    ? parts[1]
    : parts.find((part) => /^[a-z]+$/.test(part) && part !== 'claude');
  const majorAt = familyFirst ? 2 : 1;
  const major = Number(parts[majorAt]);
  if (family === undefined || !Number.isInteger(major)) return undefined;
  return { family, major, minor: minorOf(parts[majorAt + 1]) };
}

/**
 * Whether `model` keeps the thinking of earlier assistant turns in its context (and bills it as
 * input). False only for Claude models before Opus 4.5; true for anything else, unknown included.
 */
export function thinkingKept(model: string | undefined): boolean {
  if (model === undefined) return true;
  const version = claudeVersion(model);
  if (version === undefined) return true;
  const { family, major, minor } = version;
  if (major !== 4) return major > 4;
  if (minor !== 5) return minor > 5;
  return family === 'opus';
}

/**
 * The index of the first entry of the current assistant turn in a request: the entry after its
 * last human entry (0 when there is none). Thinking in AI entries before it belongs to earlier
 * turns.
 */
export function currentTurnStart(contents: readonly IContent[]): number {
  for (let index = contents.length - 1; index >= 0; index--) {
    if (contents[index]?.speaker === 'human') return index + 1;
  }
  return 0;
}

/**
 * The AI entries of a request whose thinking `model` drops from its context: those of earlier
 * turns (before `currentTurnStart`) that hold thinking, when the model does not keep it.
 * `turnStart` overrides where the current turn begins (a summarization request appended after
 * the history starts a new turn: `contents.length`).
 */
export function entriesWithDroppedThinking(
  contents: readonly IContent[],
  model: string | undefined,
  turnStart: number = currentTurnStart(contents),
): IContent[] {
  if (thinkingKept(model)) return [];
  return contents
    .slice(0, turnStart)
    .filter(
      (entry) => entry.speaker === 'ai' && entry.blocks.some((block) => block.type === 'thinking'),
    );
}
