/**
 * Reading a recorded tool result as a failure: an error result (the importers set `error` for a
 * client's error flag or a non-zero exit), or a shell result whose text reports a non-zero exit
 * code; and its signature — for a shell's output the first line that reads as an error (error,
 * fail, exception, traceback, assert, panic), else its first line; for another tool's error the
 * first line of its message — whitespace collapsed and cut to `SIGNATURE_CHARS`: enough to tell
 * one error from another, and what a summary that quotes the error line keeps. The shell tools'
 * own framing (exit code, wall time, command, directory, a field reading `(none)` or `(empty)`;
 * an `Output:` label and Claude Code's `<tool_use_error>` tags are taken off) is no signature,
 * and neither is a banner (`==== FAILURES ====`, a box-drawing rule): it heads every failure
 * alike, so it tells none apart; a terminal's colour codes are taken off. Independent of the
 * compression code. Pure.
 */
import type { ToolResponseBlock } from '../../services/history/IContent.js';
import { leaves } from '../grounding/groundingText.js';
import { compactWhitespace } from './TextSightings.js';

export const SIGNATURE_CHARS = 120;

const SHELL_TOOLS: ReadonlySet<string> = new Set([
  'run_shell_command',
  'Bash',
  'bash',
  'shell',
  'shell_command',
  'exec_command',
  'local_shell_call',
  'execute_bash',
  'PowerShell',
]);

const EXIT_LINE = /^\s*(?:process |command )?exit(?:ed with)? (?:code|status)\s*:?\s*(-?\d+)\s*$/im;
const EXIT_FIELD = /"exit_code"\s*:\s*(-?\d+)/;
const ERROR_WORD = /error|fail|exception|traceback|assert|panic/i;
/** Lines of the shell tools' framing around the output (Codex, gemini-cli and alike). */
const FRAMING =
  /^(?:(?:process |command )?exit(?:ed with)? (?:code|status)\b|chunk id:|wall time:|original token count:|total output lines:|command:|directory:|signal:|background pids:|process group pgid:|[\w ]+:\s*\((?:none|empty)\)$)/i;
const OUTPUT_LABEL = /^output:\s*/i;
/** A few words, none a count, between runs of rule characters (ASCII or box drawing). */
const BANNER =
  /^[=\-_*#~\u2500-\u257f]{3,}(?:\s*[^\s\d=\-_*#~\u2500-\u257f]\S*(?:\s+[^\s\d]\S*){0,3})?\s*[=\-_*#~\u2500-\u257f]{3,}$/;
const ERROR_TAGS = /<\/?tool_use_error>/g;

/** What a result shows: its result's text, then its error text. */
export function resultText(block: ToolResponseBlock): string {
  const result = leaves(block.result);
  return block.error === undefined ? result : [result, block.error].filter(Boolean).join('\n');
}

/** Whether `block` comes from a shell tool (its text is program output). */
export function isShellResult(block: ToolResponseBlock): boolean {
  return SHELL_TOOLS.has(block.toolName);
}

/** Whether `block` reports a failure (its text is `resultText(block)`). */
export function isFailure(block: ToolResponseBlock, text: string): boolean {
  if (block.error !== undefined) return true;
  if (!isShellResult(block)) return false;
  const code = EXIT_LINE.exec(text)?.[1] ?? EXIT_FIELD.exec(text)?.[1];
  return code !== undefined && Number(code) !== 0;
}

/**
 * The line that names the failure in `text`: for a shell tool's output (`shell`) the first that
 * reads as an error, else its first line; for another tool's error (a message such as Claude
 * Code's `String to replace not found in file.`, which may go on to echo the call's parameters) its
 * first line. '' when it has none but the shell tool's framing (a search that matched nothing:
 * `Exit code: 1` and an empty output), which shows nothing to keep.
 */
export function failureSignature(text: string, shell = true): string {
  const telling = text
    .split('\n')
    .map(compactWhitespace)
    .filter((line) => line !== '' && !FRAMING.test(line))
    .map((line) => line.replace(OUTPUT_LABEL, '').replace(ERROR_TAGS, '').trim())
    .filter((line) => line !== '' && !BANNER.test(line));
  // Another tool's error is a message, its first line the error; a shell's is program output.
  const named = shell ? telling.find((candidate) => ERROR_WORD.test(candidate)) : undefined;
  const line = named ?? telling[0] ?? '';
  return line.slice(0, SIGNATURE_CHARS).trim();
}
