/**
 * Reads the JavaScript of Codex's `exec` tool into the nested tool calls it makes, for the forms
 * whose effect and output can be attributed with certainty: statements that await
 * `tools.exec_command({cmd: "<literal>", …})` or `tools.apply_patch("<literal>")`, optionally bind
 * the result to a constant, and pass it (or its `.output`) to `text(…)`. Anything else — loops,
 * conditions, variables in arguments, substitutions, other tools, several commands in one script —
 * is `opaque`: the caller must treat that call as touching no known file. Pure; never throws.
 */
import { execCodeTokens, type ExecToken } from './execCodeTokens.js';

export type ExecNestedCall =
  | {
      readonly tool: 'exec_command';
      /** The argument object, literal values only; `cmd` is always a string. */
      readonly parameters: Readonly<Record<string, unknown>>;
    }
  | { readonly tool: 'apply_patch'; readonly patch: string };

export const EXEC_OPAQUE_REASONS = [
  'unsupported syntax',
  'unsupported statement',
  'unsupported tool',
  'unsupported arguments',
  'no tool call',
  'several commands',
] as const;
export type ExecOpaqueReason = (typeof EXEC_OPAQUE_REASONS)[number];

export type ExecCodeParse =
  | {
      readonly kind: 'calls';
      readonly calls: readonly ExecNestedCall[];
      /** A whole `exec_command` result (with its `exit_code`) is passed to `text(…)`. */
      readonly showsResult: boolean;
    }
  | { readonly kind: 'opaque'; readonly reason: ExecOpaqueReason };

/** `exec_command` arguments whose literal values leave the command a plain shell command. */
const COMMAND_KEYS = new Set([
  'cmd',
  'workdir',
  'justification',
  'login',
  'max_output_tokens',
  'prefix_rule',
  'sandbox_permissions',
  'tty',
  'yield_time_ms',
]);
const DECLARATIONS = new Set(['const', 'let', 'var']);

/** Thrown inside the parser only, caught by `parseExecCode`, which reports the reason. */
class Opaque extends Error {
  readonly code = 'EXEC_CODE_OPAQUE';
  constructor(readonly reason: ExecOpaqueReason) {
    super(reason);
  }
}

class Cursor {
  private at = 0;
  constructor(private readonly tokens: readonly ExecToken[]) {}

  get done(): boolean {
    return this.at >= this.tokens.length;
  }

  peek(offset = 0): ExecToken | undefined {
    return this.tokens[this.at + offset];
  }

  isPunct(value: string, offset = 0): boolean {
    const token = this.peek(offset);
    return token?.kind === 'punct' && token.value === value;
  }

  isWord(value: string, offset = 0): boolean {
    const token = this.peek(offset);
    return token?.kind === 'word' && token.value === value;
  }

  next(): ExecToken {
    const token = this.tokens[this.at];
    if (token === undefined) throw new Opaque('unsupported statement');
    this.at += 1;
    return token;
  }

  punct(value: string, reason: ExecOpaqueReason = 'unsupported statement'): void {
    const token = this.next();
    if (token.kind !== 'punct' || token.value !== value) throw new Opaque(reason);
  }

  word(reason: ExecOpaqueReason = 'unsupported statement'): string {
    const token = this.next();
    if (token.kind !== 'word') throw new Opaque(reason);
    return token.value;
  }
}

function literal(cursor: Cursor): unknown {
  const token = cursor.next();
  if (token.kind === 'string' || token.kind === 'number') return token.value;
  if (token.kind === 'word' && (token.value === 'true' || token.value === 'false'))
    return token.value === 'true';
  if (token.kind === 'punct' && token.value === '[') {
    const items: string[] = [];
    while (!cursor.isPunct(']')) {
      const item = cursor.next();
      if (item.kind !== 'string') throw new Opaque('unsupported arguments');
      items.push(item.value);
      if (!cursor.isPunct(']')) cursor.punct(',', 'unsupported arguments');
    }
    cursor.next();
    return items;
  }
  throw new Opaque('unsupported arguments');
}

function commandArguments(cursor: Cursor): Record<string, unknown> {
  cursor.punct('{', 'unsupported arguments');
  const parameters: Record<string, unknown> = {};
  while (!cursor.isPunct('}')) {
    const key = cursor.next();
    if (key.kind !== 'word' && key.kind !== 'string') throw new Opaque('unsupported arguments');
    if (!COMMAND_KEYS.has(key.value) || Object.hasOwn(parameters, key.value))
      throw new Opaque('unsupported arguments');
    cursor.punct(':', 'unsupported arguments');
    parameters[key.value] = literal(cursor);
    if (!cursor.isPunct('}')) cursor.punct(',', 'unsupported arguments');
  }
  cursor.next();
  if (typeof parameters.cmd !== 'string') throw new Opaque('unsupported arguments');
  if (parameters.workdir !== undefined && typeof parameters.workdir !== 'string')
    throw new Opaque('unsupported arguments');
  return parameters;
}

/** `await tools.NAME(ARG)` */
function awaitedCall(cursor: Cursor): ExecNestedCall {
  if (cursor.word() !== 'await' || cursor.word() !== 'tools')
    throw new Opaque('unsupported statement');
  cursor.punct('.');
  const tool = cursor.word('unsupported tool');
  cursor.punct('(');
  let call: ExecNestedCall;
  if (tool === 'exec_command') call = { tool, parameters: commandArguments(cursor) };
  else if (tool === 'apply_patch') {
    const patch = cursor.next();
    if (patch.kind !== 'string') throw new Opaque('unsupported arguments');
    call = { tool, patch: patch.value };
  } else throw new Opaque('unsupported tool');
  cursor.punct(')', 'unsupported arguments');
  return call;
}

interface Script {
  readonly calls: ExecNestedCall[];
  readonly bound: Map<string, ExecNestedCall>;
  showsResult: boolean;
}

/** What `text(…)` is given: a call (awaited here or bound earlier), whole or its `.output`. */
function textArgument(cursor: Cursor, script: Script): void {
  let call: ExecNestedCall;
  if (cursor.isPunct('(')) {
    cursor.next();
    call = awaitedCall(cursor);
    cursor.punct(')');
  } else if (cursor.isWord('await')) call = awaitedCall(cursor);
  else {
    const bound = script.bound.get(cursor.word());
    if (bound === undefined) throw new Opaque('unsupported statement');
    call = bound;
  }
  const whole = !cursor.isPunct('.');
  if (!whole) {
    cursor.next();
    if (cursor.word() !== 'output' || call.tool !== 'exec_command')
      throw new Opaque('unsupported statement');
  }
  if (whole && call.tool === 'exec_command') script.showsResult = true;
  if (!script.calls.includes(call)) script.calls.push(call);
}

function statement(cursor: Cursor, script: Script): void {
  const first = cursor.peek();
  if (first?.kind !== 'word') throw new Opaque('unsupported statement');
  if (DECLARATIONS.has(first.value)) {
    cursor.next();
    const name = cursor.word();
    if (script.bound.has(name) || name === 'tools' || name === 'text')
      throw new Opaque('unsupported statement');
    cursor.punct('=');
    const call = awaitedCall(cursor);
    script.bound.set(name, call);
    script.calls.push(call);
  } else if (first.value === 'await') script.calls.push(awaitedCall(cursor));
  else if (first.value === 'text' && cursor.isPunct('(', 1)) {
    cursor.next();
    cursor.next();
    textArgument(cursor, script);
    cursor.punct(')');
  } else throw new Opaque('unsupported statement');
  if (cursor.isPunct(';')) cursor.next();
}

/** The nested calls of an `exec` script, or why it is not understood. */
export function parseExecCode(code: string): ExecCodeParse {
  const tokens = execCodeTokens(code);
  if (tokens.kind === 'unsupported') return { kind: 'opaque', reason: 'unsupported syntax' };
  const cursor = new Cursor(tokens.tokens);
  const script: Script = { calls: [], bound: new Map(), showsResult: false };
  try {
    while (!cursor.done) statement(cursor, script);
  } catch (error) {
    if (error instanceof Opaque) return { kind: 'opaque', reason: error.reason };
    throw error;
  }
  const commands = script.calls.filter((call) => call.tool === 'exec_command').length;
  if (script.calls.length === 0) return { kind: 'opaque', reason: 'no tool call' };
  if (commands > 0 && script.calls.length > 1)
    return { kind: 'opaque', reason: 'several commands' };
  return { kind: 'calls', calls: script.calls, showsResult: script.showsResult };
}
