/**
 * The slash-command contract: a command is a small async function from its argument text and the
 * session to output (lines, the /context view, or "quit"). Commands never touch the UI; the
 * interactive shell renders what they return.
 */
import type { ContextReport, DensityPassSwitches } from '@dense/core';
import type { PromptTokens } from '../format/contextExtraLines.js';
import type { CliSession } from '../session/CliSession.js';

export type { LineTone, OutputLine } from '../format/outputLine.js';
import type { OutputLine } from '../format/outputLine.js';

export type CommandOutput =
  | { readonly kind: 'lines'; readonly lines: readonly OutputLine[] }
  | {
      readonly kind: 'context';
      readonly report: ContextReport;
      readonly switches: DensityPassSwitches;
      readonly prompt?: PromptTokens;
      readonly workspaceRoot?: string;
    }
  | { readonly kind: 'quit' };

export interface CommandDeps {
  readonly cli: CliSession;
  /** Every registered command (for /help). */
  readonly commands: readonly SlashCommand[];
}

/** What completion may know without I/O (it runs on every Tab). */
export interface CompletionContext {
  readonly profileNames: readonly string[];
}

export interface SlashCommand {
  /** Without the slash. */
  readonly name: string;
  /** e.g. `/set <key> <value>`; one line per form. */
  readonly usage: readonly string[];
  readonly summary: string;
  run(args: string, deps: CommandDeps): Promise<CommandOutput>;
  /** Candidates for the last word of `args` (the text after the command name and a space). */
  complete?(args: string, context: CompletionContext): readonly string[];
}

export function lines(...items: readonly (OutputLine | string)[]): CommandOutput {
  return {
    kind: 'lines',
    lines: items.map((item) => (typeof item === 'string' ? { text: item } : item)),
  };
}

export function errorLine(text: string): CommandOutput {
  return lines({ text, tone: 'error' });
}
