/**
 * Tab completion for the input line: command names after `/`, then whatever the command offers for
 * its current word (setting keys, enum values, true/false, profile names). Pure; the input box
 * applies the result.
 */
import { findCommand, SLASH_COMMANDS } from './slashCommands.js';
import type { CompletionContext, SlashCommand } from './types.js';

export interface Completion {
  /** The input with its last word completed as far as all candidates agree. */
  readonly text: string;
  /** Every candidate for the last word (to show when there is more than one). */
  readonly candidates: readonly string[];
}

function commonPrefix(words: readonly string[]): string {
  if (words.length === 0) return '';
  let prefix = words[0] as string;
  for (const word of words) {
    while (!word.startsWith(prefix)) prefix = prefix.slice(0, -1);
  }
  return prefix;
}

function completeWord(head: string, partial: string, options: readonly string[]): Completion {
  const candidates = options.filter((option) => option.startsWith(partial));
  if (candidates.length === 1) return { text: `${head}${candidates[0]} `, candidates };
  const prefix = commonPrefix(candidates);
  return { text: `${head}${prefix.length > partial.length ? prefix : partial}`, candidates };
}

/** `undefined` when the input is not a slash command (nothing to complete). */
export function completeInput(
  input: string,
  context: CompletionContext,
  commands: readonly SlashCommand[] = SLASH_COMMANDS,
): Completion | undefined {
  if (!input.startsWith('/')) return undefined;
  const space = input.indexOf(' ');
  if (space === -1) {
    const partial = input.slice(1);
    const completion = completeWord(
      '/',
      partial,
      commands.map((command) => command.name),
    );
    return completion;
  }
  const command = findCommand(input.slice(1, space), commands);
  if (command?.complete === undefined) return { text: input, candidates: [] };
  const args = input.slice(space + 1).replace(/^\s+/, '');
  const lastSpace = input.lastIndexOf(' ');
  const head = input.slice(0, lastSpace + 1);
  const partial = input.slice(lastSpace + 1);
  return completeWord(head, partial, command.complete(args, context));
}
