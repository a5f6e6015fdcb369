/**
 * The table of slash commands and the dispatcher: `/name args` → the command's output, or an
 * error line naming the closest commands when the name is unknown.
 */
import { closestMatches, editDistance, errorMessage } from '@dense/core';
import { helpCommand } from './helpCommand.js';
import { modelCommand, providerCommand } from './modelCommands.js';
import { profileCommand } from './profileCommand.js';
import {
  clearCommand,
  compressCommand,
  contextCommand,
  quitCommand,
  todoCommand,
} from './sessionCommands.js';
import { resumeCommand, sessionsCommand } from './sessionListCommands.js';
import { setCommand } from './setCommand.js';
import { errorLine, type CommandDeps, type CommandOutput, type SlashCommand } from './types.js';

export const SLASH_COMMANDS: readonly SlashCommand[] = [
  setCommand,
  profileCommand,
  contextCommand,
  compressCommand,
  modelCommand,
  providerCommand,
  sessionsCommand,
  resumeCommand,
  todoCommand,
  clearCommand,
  helpCommand,
  quitCommand,
];

/** Aliases people type out of habit. */
const ALIASES: Readonly<Record<string, string>> = { exit: 'quit', q: 'quit', '?': 'help' };

export function isSlashCommand(input: string): boolean {
  return input.trimStart().startsWith('/');
}

/** Splits `/name rest…` into the name and the argument text. */
export function splitCommand(input: string): { readonly name: string; readonly args: string } {
  const body = input.trimStart().slice(1);
  const space = body.search(/\s/);
  return space === -1
    ? { name: body, args: '' }
    : { name: body.slice(0, space), args: body.slice(space + 1) };
}

export function findCommand(
  name: string,
  commands: readonly SlashCommand[] = SLASH_COMMANDS,
): SlashCommand | undefined {
  const wanted = ALIASES[name] ?? name;
  return commands.find((command) => command.name === wanted);
}

/**
 * Commands close enough to a mistyped name to be what was meant. Command names are short, so the
 * generic budget (3 edits) would pair unrelated words ('/model' → '/todo'): at most half the longer
 * name may differ.
 */
export function commandHints(name: string, names: readonly string[]): string[] {
  const lower = name.toLowerCase();
  return closestMatches(lower, names)
    .filter((candidate) => {
      if (lower.length > 2 && (candidate.includes(lower) || lower.includes(candidate))) return true;
      return (
        editDistance(lower, candidate) <= Math.floor(Math.max(lower.length, candidate.length) / 2)
      );
    })
    .map((candidate) => `/${candidate}`);
}

/** Runs one slash command line. Never throws: failures come back as error lines. */
export async function runSlashCommand(
  input: string,
  deps: Omit<CommandDeps, 'commands'> & { readonly commands?: readonly SlashCommand[] },
): Promise<CommandOutput> {
  const commands = deps.commands ?? SLASH_COMMANDS;
  const { name, args } = splitCommand(input);
  const command = findCommand(name, commands);
  if (command === undefined) {
    const hints = commandHints(
      name,
      commands.map((c) => c.name),
    );
    const hint = hints.length > 0 ? ` Did you mean ${hints.join(', ')}?` : '';
    return errorLine(`Unknown command /${name}.${hint} Type /help for the list.`);
  }
  try {
    return await command.run(args, { ...deps, commands });
  } catch (error) {
    return errorLine(`/${command.name} failed: ${errorMessage(error)}`);
  }
}
