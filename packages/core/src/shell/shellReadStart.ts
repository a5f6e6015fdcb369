/**
 * Whether a shell command is a read of one file (it prints that file's content and nothing else,
 * and changes no file, as `classifyShellCommand` sees it) and which line of the file its output
 * starts at, so that the names it shows can be given their lines in the file: 1 for `cat`, `nl`,
 * `head`; A for `sed -n 'A,Bp'` and `tail -n +A`; null where that is not known (`tail -n 40`).
 * Pure.
 */
import { classifyShellCommand } from './classifyShellCommand.js';

/** `sed -n 'A,Bp'`, `sed -n "Ap"`, `sed -n A,\$p`. */
const SED_RANGE = /\bsed\s+-n\s+['"]?(\d+)(?:,\s*(?:\d+|\$))?p\b/;
/** `tail -n +A`, `tail +A`. */
const TAIL_FROM = /\btail\s+(?:-n\s*)?\+(\d+)\b/;
const TAIL = /\btail\b/;

/** Where a shell read of one file starts (`firstLine`); undefined when `command` is not one. */
export function shellReadStart(command: string): { readonly firstLine: number | null } | undefined {
  const access = classifyShellCommand(command);
  if (access?.outputIsReads !== true || access.reads.length !== 1 || access.writes.length > 0) {
    return undefined;
  }
  const from = SED_RANGE.exec(command)?.[1] ?? TAIL_FROM.exec(command)?.[1];
  if (from !== undefined) return { firstLine: Math.max(1, Number(from)) };
  return { firstLine: TAIL.test(command) ? null : 1 };
}
