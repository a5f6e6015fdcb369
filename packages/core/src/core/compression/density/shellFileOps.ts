/**
 * A conservative classifier of shell commands as file operations, for READ→WRITE pruning beyond
 * the read/write tools: `cat f`, `nl -ba f`, `head`/`tail [-n N] f` and `sed -n 'A,Bp' f` read
 * `f` into the model's view; `sed -i … f`, `cat > f <<EOF`, `> f`, `echo … > f` and `tee f`
 * write it. Anything else — several commands, pipes into other programs, globs, variables,
 * substitutions, unknown options — is `undefined`: not a file operation density may rely on.
 */
import type { FileEffect } from './callFileEffect.js';
import { shellWords, splitHereDocument, type ShellToken } from './shellWords.js';

interface SimpleCommand {
  readonly argv: readonly string[];
  /** Targets of `>` / `>>`. */
  readonly redirects: readonly string[];
  /** stdin is a here-document. */
  readonly hereDoc: boolean;
}

/** `{ reads, writes }` for an unambiguous file operation, else `undefined`. Never throws. */
export function classifyShellFileOps(command: string): FileEffect | undefined {
  const split = splitHereDocument(command.trim());
  if (split === undefined) return undefined;
  const tokens = shellWords(split.line);
  if (tokens === undefined) return undefined;
  const segments = splitPipeline(tokens);
  if (segments === undefined) return undefined;
  const [first, second] = segments;
  if (first === undefined) return undefined;
  const head = simpleCommand(first, split.hereDoc);
  if (head === undefined) return undefined;
  if (second === undefined) return withSafePaths(classifySimple(head));
  // Only `echo …` / `printf …` piped into `tee`: the producer has no side effects.
  const tee = simpleCommand(second, false);
  if (tee === undefined || head.redirects.length > 0 || head.hereDoc) return undefined;
  if (head.argv[0] !== 'echo' && head.argv[0] !== 'printf') return undefined;
  return withSafePaths(classifyTee(tee, true));
}

function splitPipeline(tokens: readonly ShellToken[]): ShellToken[][] | undefined {
  const segments: ShellToken[][] = [[]];
  for (const token of tokens) {
    if (token.kind === 'op' && token.value === '|') segments.push([]);
    else segments[segments.length - 1]?.push(token);
  }
  return segments.length <= 2 && segments.every((s) => s.length > 0) ? segments : undefined;
}

function simpleCommand(tokens: readonly ShellToken[], hereDoc: boolean): SimpleCommand | undefined {
  const argv: string[] = [];
  const redirects: string[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i] as ShellToken;
    if (token.kind === 'word') {
      argv.push(token.value);
      continue;
    }
    if (token.value !== '>' && token.value !== '>>') return undefined;
    const target = tokens[++i];
    if (target?.kind !== 'word') return undefined;
    redirects.push(target.value);
  }
  return redirects.length <= 1 ? { argv, redirects, hereDoc } : undefined;
}

/** Paths the classifier will not vouch for: empty, options, devices. */
function withSafePaths(effect: FileEffect | undefined): FileEffect | undefined {
  if (effect === undefined) return undefined;
  const unsafe = (p: string) => p === '' || p.startsWith('-') || p.startsWith('/dev/');
  return [...effect.reads, ...effect.writes].some(unsafe) ? undefined : effect;
}

function classifySimple(command: SimpleCommand): FileEffect | undefined {
  const [name, ...args] = command.argv;
  switch (name) {
    case undefined:
    case ':':
    case 'echo':
    case 'printf':
      return classifyRedirectOnly(command);
    case 'cat':
      return classifyCat(args, command);
    case 'nl':
      return readOrCopy(stripOptions(args, ['-ba']), command);
    case 'head':
    case 'tail':
      return readOrCopy(stripCountOption(args), command);
    case 'sed':
      return classifySed(args, command);
    case 'tee':
      return command.redirects.length === 0 && command.hereDoc
        ? classifyTee(command, false)
        : undefined;
    default:
      return undefined;
  }
}

/** `> f`, `: > f`, `echo … > f`, `printf … >> f`: the redirect target is written. */
function classifyRedirectOnly(command: SimpleCommand): FileEffect | undefined {
  const [name, ...args] = command.argv;
  const written = command.redirects;
  if (written.length !== 1) return undefined;
  if (name === undefined || name === ':') {
    return args.length === 0 ? { reads: [], writes: written } : undefined;
  }
  return command.hereDoc ? undefined : { reads: [], writes: written };
}

function classifyCat(args: readonly string[], command: SimpleCommand): FileEffect | undefined {
  const files = stripOptions(args, ['-n']);
  if (files === undefined) return undefined;
  if (command.hereDoc) {
    return files.length === 0 && command.redirects.length === 1
      ? { reads: [], writes: command.redirects }
      : undefined;
  }
  if (files.length === 0) return undefined;
  return command.redirects.length === 0
    ? { reads: files, writes: [] }
    : { reads: [], writes: command.redirects };
}

/** One file shown in full view, or copied into the redirect target (then nothing is shown). */
function readOrCopy(
  files: readonly string[] | undefined,
  command: SimpleCommand,
): FileEffect | undefined {
  if (files?.length !== 1 || command.hereDoc) return undefined;
  return command.redirects.length === 0
    ? { reads: files, writes: [] }
    : { reads: [], writes: command.redirects };
}

/** The operands, when every option is one of `allowed`; `undefined` on any other option. */
function stripOptions(args: readonly string[], allowed: readonly string[]): string[] | undefined {
  const operands: string[] = [];
  for (const arg of args) {
    if (!arg.startsWith('-')) operands.push(arg);
    else if (!allowed.includes(arg)) return undefined;
  }
  return operands;
}

/** `head` / `tail` operands after `-n N`, `-nN` or `-N`. */
function stripCountOption(args: readonly string[]): string[] | undefined {
  const operands: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (arg === '-n' && /^\+?\d+$/.test(args[i + 1] ?? '')) i++;
    else if (/^-(n\+?)?\d+$/.test(arg)) continue;
    else if (arg.startsWith('-')) return undefined;
    else operands.push(arg);
  }
  return operands;
}

const PRINT_RANGE = /^(\d+|\$)(,(\d+|\$))?p$/;

interface SedArgs {
  readonly inPlace: boolean;
  readonly quiet: boolean;
  readonly script: string;
  readonly operands: readonly string[];
}

/** `sed`'s options, script and files, when only `-i[.suffix]`, `-n`, `-E`, `-r`, one `-e` appear. */
function parseSedArgs(args: readonly string[]): SedArgs | undefined {
  let inPlace = false;
  let quiet = false;
  let script: string | undefined;
  const operands: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (/^-i(\.\w+)?$/.test(arg)) {
      inPlace = true;
      if (arg === '-i' && args[i + 1] === '') i++; // BSD sed: `-i ''`, no backup suffix
    } else if (arg === '-n') quiet = true;
    else if (arg === '-E' || arg === '-r') continue;
    else if (arg === '-e' && script === undefined && args[i + 1] !== undefined) script = args[++i];
    else if (arg.startsWith('-')) return undefined;
    else if (script === undefined) script = arg;
    else operands.push(arg);
  }
  return script === undefined || operands.length === 0
    ? undefined
    : { inPlace, quiet, script, operands };
}

function classifySed(args: readonly string[], command: SimpleCommand): FileEffect | undefined {
  const sed = command.hereDoc ? undefined : parseSedArgs(args);
  if (sed === undefined) return undefined;
  if (sed.inPlace) {
    return command.redirects.length === 0 ? { reads: [], writes: sed.operands } : undefined;
  }
  if (!sed.quiet || !PRINT_RANGE.test(sed.script)) return undefined;
  return readOrCopy(sed.operands, command);
}

function classifyTee(command: SimpleCommand, piped: boolean): FileEffect | undefined {
  const [name, ...args] = command.argv;
  if (name !== 'tee' || command.redirects.length > 0 || (command.hereDoc && piped))
    return undefined;
  const files = stripOptions(args, ['-a']);
  return files === undefined || files.length === 0 ? undefined : { reads: [], writes: files };
}
