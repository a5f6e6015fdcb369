/**
 * A shell tool's result read as its command's output: the fields a tool writes around the output
 * (gemini-cli's `Command:`, `Directory:`, `Exit Code:`; Codex's `Exit code:`, `Wall time:`,
 * `Output:` header; Claude Code's `Exit code N` first line; a field reading `(none)`) are not output, and an `Output:` label is taken off
 * (an `Error:` or `stderr:` label stays: it says what the line is).
 * Also the one test for a line that names an error, which the one-line summaries, the trail's
 * error lines and what was tried and failed share. Pure.
 */

/** Words that name an error (`TypeError:`, `AssertionError`, `2 failures`, `no matches found`). */
const ERROR_WORDS =
  /(errors?|exception)\b|\b(fail(ed|ures?|s)?|traceback|assert\w*|panic|not found|no matches found|no such file|denied)\b|✗|×/i;
/**
 * A banner a test runner or script draws between sections (pytest's `==== FAILURES ====`,
 * `____ test_x ____`, a box-drawing rule): a few words, none a count, between runs of rule
 * characters. It heads every failure alike, so it never names one.
 */
const BANNER =
  /^[=\-_*#~\u2500-\u257f]{3,}(?:\s*[^\s\d=\-_*#~\u2500-\u257f]\S*(?:\s+[^\s\d]\S*){0,3})?\s*[=\-_*#~\u2500-\u257f]{3,}$/;
/** A terminal's colour and cursor codes: not output a reader sees. */
// eslint-disable-next-line no-control-regex
const ANSI_CODE = /\u001b\[[0-9;?]*[ -/]*[@-~]/g;

const FRAMING =
  /^(command|directory|exit code|signal|background pids|process group pgid|wall time|chunk id|original token count|total output lines):|^process exited with code -?\d+$|^exit code:? ?-?\d+$|^(error|stderr|stdout|output): *\((none|empty)\)\s*$/i;
const OUTPUT_LABEL = /^output: */i;
/** How many lines `firstErrorLine` reads from the top. */
const ERROR_LINE_SCAN = 400;

/** What `line` shows of the command's output: '' for the tool's framing, else without a label. */
export function outputBody(line: string): string {
  const trimmed = line.replace(ANSI_CODE, '').trim();
  if (trimmed === '' || FRAMING.test(trimmed)) return '';
  return trimmed.replace(OUTPUT_LABEL, '').trim();
}

/** The output's lines from the top (at most `limit`), whitespace collapsed, framing left out. */
export function outputLines(text: string, limit = Infinity): string[] {
  const lines: string[] = [];
  for (const raw of text.split('\n', limit === Infinity ? undefined : limit)) {
    const body = outputBody(raw).replace(/\s+/g, ' ');
    if (body !== '') lines.push(body);
  }
  return lines;
}

/** Whether `line` names an error (a banner never does). */
export function namesError(line: string): boolean {
  return ERROR_WORDS.test(line) && !BANNER.test(line.trim());
}

/** The first line of the output that names an error; '' when none of its first lines does. */
export function firstErrorLine(text: string): string {
  return outputLines(text, ERROR_LINE_SCAN).find(namesError) ?? '';
}

/** The first of the output's first `limit` lines that is no banner; '' when there is none. */
export function firstTellingLine(text: string, limit: number): string {
  return outputLines(text, limit).find((line) => !BANNER.test(line)) ?? '';
}
