/**
 * What was tried and failed: each shell command or tool call that failed, with its error
 * signature (exit code and first error line) and what next succeeded after it, so a compaction never
 * sends the agent back down a path it already ruled out. Kept newest last, a few at most. Pure.
 */
import { clip } from '../density/compress/summaryText.js';
import { firstErrorLine, firstTellingLine } from '../density/shellOutputLines.js';

/** One failed run and what came after it. */
export interface TriedCommand {
  /** The command as the trail shows it (`commandKey`). */
  readonly command: string;
  /** `exit 2: <first error line>` or `failed: <first error line>`. */
  readonly failure: string;
  /** The first command that succeeded after this failure, as `` `cmd` → exit 0 ``. */
  then?: string;
}

const TRIED_KEPT = 8;
const SIGNATURE_MAX = 160;
/**
 * The first output line that names an error, else the first output line that is no banner (a
 * shell tool's framing, such as Codex's `Wall time:`, is never one); '' for none.
 */
function errorSignature(text: string): string {
  const line = firstErrorLine(text);
  return clip(line === '' ? firstTellingLine(text, 40) : line, SIGNATURE_MAX);
}

export interface RunOutcome {
  readonly command: string;
  readonly failed: boolean;
  /** `exit N`, `failed` or `ok` (the trail's status word). */
  readonly status: string;
  /** The run's output (and error text), for the signature. */
  readonly text: string;
  /** A shell command (its success answers every failure waiting); else another tool's call. */
  readonly shell: boolean;
}

/**
 * Adds one run to `tried`: a failure goes last (an earlier failure of the same command is
 * replaced); a shell command's success answers every failure still waiting for what came next,
 * another tool's success only its own earlier failure (a read after a failed test says nothing).
 */
export function noteRun(tried: TriedCommand[], run: RunOutcome): void {
  if (!run.failed) {
    for (const entry of tried) {
      if (run.shell || entry.command === run.command) {
        entry.then ??= `\`${run.command}\` → ${run.status}`;
      }
    }
    return;
  }
  const signature = errorSignature(run.text);
  const failure = signature === '' ? run.status : `${run.status}: ${signature}`;
  const at = tried.findIndex((entry) => entry.command === run.command);
  if (at !== -1) tried.splice(at, 1);
  tried.push({ command: run.command, failure });
  if (tried.length > TRIED_KEPT) tried.splice(0, tried.length - TRIED_KEPT);
}

/**
 * Adds failures an earlier trail listed (oldest first) that `tried` does not hold yet, before
 * the ones it holds: they happened earlier. Keeps the newest `TRIED_KEPT`.
 */
export function carryTried(tried: TriedCommand[], carried: readonly TriedCommand[]): void {
  const known = new Set(tried.map((entry) => entry.command));
  const older = carried.filter((entry) => !known.has(entry.command)).map((entry) => ({ ...entry }));
  tried.unshift(...older);
  if (tried.length > TRIED_KEPT) tried.splice(0, tried.length - TRIED_KEPT);
}

/** One line per failed command, oldest first. */
export function triedLines(tried: readonly TriedCommand[]): string[] {
  return tried.map(
    (entry) =>
      `- \`${entry.command}\` → ${entry.failure}${entry.then === undefined ? '' : `; then ${entry.then}`}`,
  );
}
