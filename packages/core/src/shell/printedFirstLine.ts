/**
 * Which line of the file a shell read's output starts at, so that the names it shows can be given
 * their lines in the file: 1 for `cat`, `nl`, `head` of one file; A for `sed -n 'A,Bp'` and
 * `tail -n +A`; undefined when the command is not a read of one file (as `classifyShellCommand`
 * sees it) or where its output starts is not known (`tail -n 40`). Pure.
 */
import { classifyShellCommand } from './classifyShellCommand.js';

/** `sed -n 'A,Bp'`, `sed -n "Ap"`, `sed -n A,\$p`. */
const SED_RANGE = /\bsed\s+-n\s+['"]?(\d+)(?:,\s*(?:\d+|\$))?p\b/;
/** `tail -n +A`, `tail +A`. */
const TAIL_FROM = /\btail\s+(?:-n\s*)?\+(\d+)\b/;
const TAIL = /\btail\b/;

export function printedFirstLine(command: string): number | undefined {
  const access = classifyShellCommand(command);
  if (access === undefined || !access.outputIsReads || access.reads.length !== 1) return undefined;
  const sed = SED_RANGE.exec(command)?.[1] ?? TAIL_FROM.exec(command)?.[1];
  if (sed !== undefined) return Math.max(1, Number(sed));
  return TAIL.test(command) ? undefined : 1;
}
