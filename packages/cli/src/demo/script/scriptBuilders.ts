/**
 * The vocabulary of the demo's scripted session: a turn is a user message, the model's tool-using
 * steps and its final reply. Small builders keep the chapters readable.
 */

/** One tool call the scripted model makes; `expectError` marks a call meant to fail (a red test run). */
export interface DemoToolCall {
  readonly name: string;
  readonly args: Readonly<Record<string, unknown>>;
  readonly expectError?: boolean;
}

/** One model reply that calls tools, optionally with a sentence before the calls. */
export interface DemoStep {
  readonly say?: string;
  readonly calls: readonly DemoToolCall[];
}

/**
 * One user turn. `user` may hold `@path` references: the runner expands them with the CLI's own
 * `@` processor, exactly as the interactive agent does.
 */
export interface DemoTurn {
  readonly user: string;
  readonly steps: readonly DemoStep[];
  readonly reply: string;
}

/**
 * A template tag for code and markdown payloads: backslashes stay as written (`\n` is two
 * characters, as in a source file) and only `` \` `` and `\$` are unescaped, so payloads read like
 * the files they end up in.
 */
export function verbatim(strings: TemplateStringsArray, ...values: readonly unknown[]): string {
  return String.raw({ raw: strings.raw }, ...values).replace(/\\([`$])/g, '$1');
}

export function turn(user: string, reply: string, ...steps: readonly DemoStep[]): DemoTurn {
  return { user, steps, reply };
}

export function step(say: string | undefined, ...calls: readonly DemoToolCall[]): DemoStep {
  return say === undefined ? { calls } : { say, calls };
}

export function read(filePath: string): DemoToolCall {
  return { name: 'read_file', args: { file_path: filePath } };
}

export function edit(filePath: string, oldString: string, newString: string): DemoToolCall {
  return {
    name: 'replace',
    args: { file_path: filePath, old_string: oldString, new_string: newString },
  };
}

export function write(filePath: string, content: string): DemoToolCall {
  return { name: 'write_file', args: { file_path: filePath, content } };
}

export function shell(command: string, options: { readonly fails?: boolean } = {}): DemoToolCall {
  return {
    name: 'run_shell_command',
    args: { command },
    ...(options.fails === true ? { expectError: true } : {}),
  };
}

export const TEST_COMMAND = 'node test/run.js';

/** `node test/run.js`, expected to pass. */
export const runTests: DemoToolCall = shell(TEST_COMMAND);

/** `node test/run.js`, expected to fail (a new test before its fix). */
export const runFailingTests: DemoToolCall = shell(TEST_COMMAND, { fails: true });

export function grep(pattern: string, path?: string): DemoToolCall {
  return { name: 'grep', args: path === undefined ? { pattern } : { pattern, path } };
}

export function listDirectory(path?: string): DemoToolCall {
  return { name: 'list_directory', args: path === undefined ? {} : { path } };
}

export function glob(pattern: string): DemoToolCall {
  return { name: 'glob', args: { pattern } };
}
