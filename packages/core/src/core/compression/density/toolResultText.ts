/**
 * Reading a tool result as text: the payload a model saw, its line count, and the exit code a
 * shell tool reported. Results are `unknown`; nothing here throws.
 */

/** The text of a result: a string as is, an `{ output }` record's output, anything else as JSON. */
export function resultText(result: unknown): string {
  if (typeof result === 'string') return result;
  if (result === undefined || result === null) return '';
  if (typeof result === 'object' && !Array.isArray(result)) {
    const output = (result as Readonly<Record<string, unknown>>).output;
    if (typeof output === 'string') return output;
  }
  try {
    return JSON.stringify(result) ?? '';
  } catch {
    return '';
  }
}

const objectSizes = new WeakMap<object, number>();

/** Characters of `resultText(result)`; memoized for object results (serializing them is costly). */
export function payloadChars(result: unknown): number {
  if (typeof result === 'string') return result.length;
  if (typeof result !== 'object' || result === null) return resultText(result).length;
  let size = objectSizes.get(result);
  if (size === undefined) {
    size = resultText(result).length;
    objectSizes.set(result, size);
  }
  return size;
}

/** Lines of text; a trailing newline does not start another line, and '' has none. */
export function countLines(text: string): number {
  if (text.length === 0) return 0;
  let lines = 1;
  let at = text.indexOf('\n');
  while (at !== -1) {
    if (at < text.length - 1) lines++;
    at = text.indexOf('\n', at + 1);
  }
  return lines;
}

const EXIT_CODE = /^exit code:? *(-?\d+)\s*$/im;

/** Whether `line` is the line a shell result reports its exit code on. */
export function isExitCodeLine(line: string): boolean {
  return EXIT_CODE.test(line);
}

/** The exit code a shell result reports on a line such as `Exit Code: 1`, if any. */
export function shellExitCode(text: string): number | undefined {
  const match = EXIT_CODE.exec(text);
  return match?.[1] === undefined ? undefined : Number(match[1]);
}

/** The shell tools whose `command` parameter density understands. */
export const SHELL_TOOLS: readonly string[] = ['run_shell_command'];

export function isShellTool(name: string): boolean {
  return SHELL_TOOLS.includes(name);
}
