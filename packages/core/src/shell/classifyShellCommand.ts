/**
 * The one classifier of shell commands as file operations, shared by the transcript importers,
 * high-density's READ→WRITE pass and the replay oracle. It recognises the unambiguous file reads and
 * writes inside a command: `cat`, `nl`, `head`, `tail`, `sed -n` whose output reaches the tool
 * result (alone or piped only through those same viewers), and writes by `>`/`>>` redirection, `tee`
 * and `sed -i`. Pure and conservative: paths with variables, globs or command substitution are
 * ignored, `cd` inside the command is followed.
 */
import path from 'node:path';
import { tokenizeShell, type ShellToken } from './shellWords.js';

export interface ShellFileAccess {
  /** Files whose content the command prints, as written (joined to a `cd` target when relative). */
  readonly reads: readonly string[];
  /** Files the command creates or changes (when it succeeds). */
  readonly writes: readonly string[];
  /**
   * The command prints nothing but the content of `reads`: every part of it is a `cd` or a viewer
   * pipeline. Only then may a whole tool result be dropped when those files go stale.
   */
  readonly outputIsReads: boolean;
}

interface Redirect {
  readonly op: '>' | '>>' | '<' | '<<' | '<<<';
  readonly fd?: string;
  readonly target: string;
  readonly literal: boolean;
}

interface Stage {
  readonly words: { readonly value: string; readonly literal: boolean }[];
  readonly redirects: Redirect[];
}

const SEPARATORS = new Set(['&&', '||', ';', '&', '\n']);
const PREFIX_COMMANDS = new Set(['sudo', 'command', 'time', 'nohup', 'builtin']);
const VIEWERS = new Set(['cat', 'nl', 'head', 'tail', 'sed']);
/** Options of `head`/`tail`/`nl` that take a separate argument. */
const OPTION_ARGS: Readonly<Record<string, ReadonlySet<string>>> = {
  head: new Set(['-n', '-c']),
  tail: new Set(['-n', '-c']),
  nl: new Set(['-b', '-d', '-f', '-h', '-i', '-l', '-n', '-s', '-v', '-w']),
  cat: new Set(),
};

function splitPipelines(tokens: readonly ShellToken[]): Stage[][] {
  const pipelines: Stage[][] = [];
  let stages: Stage[] = [];
  let stage: Stage = { words: [], redirects: [] };
  let pendingRedirect: { op: Redirect['op']; fd?: string } | undefined;
  const endStage = (): void => {
    if (stage.words.length > 0 || stage.redirects.length > 0) stages.push(stage);
    stage = { words: [], redirects: [] };
  };
  for (const token of tokens) {
    if (token.kind === 'word') {
      if (pendingRedirect !== undefined) {
        stage.redirects.push({ ...pendingRedirect, target: token.value, literal: token.literal });
        pendingRedirect = undefined;
      } else stage.words.push({ value: token.value, literal: token.literal });
    } else if (token.value === '|') endStage();
    else if (SEPARATORS.has(token.value)) {
      endStage();
      if (stages.length > 0) pipelines.push(stages);
      stages = [];
    } else {
      pendingRedirect = {
        op: token.value as Redirect['op'],
        ...(token.fd === undefined ? {} : { fd: token.fd }),
      };
    }
  }
  endStage();
  if (stages.length > 0) pipelines.push(stages);
  return pipelines;
}

/** The command name and its arguments, without env assignments and prefixes such as `sudo`. */
function commandWords(stage: Stage): Stage['words'] {
  let i = 0;
  while (i < stage.words.length) {
    const word = stage.words[i]?.value ?? '';
    if (/^[A-Za-z_][A-Za-z0-9_]*=/.test(word) || PREFIX_COMMANDS.has(word)) i += 1;
    else break;
  }
  return stage.words.slice(i);
}

function operands(name: string, args: Stage['words']): Stage['words'] {
  const takesArg = OPTION_ARGS[name] ?? new Set<string>();
  const result: Stage['words'] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === undefined) continue;
    if (arg.value === '--') {
      result.push(...args.slice(i + 1));
      break;
    }
    if (arg.value.startsWith('-') && arg.value !== '-') {
      if (takesArg.has(arg.value)) i += 1;
      continue;
    }
    result.push(arg);
  }
  return result;
}

const SED_SCRIPT_OPTIONS = new Set(['-e', '-f', '--expression', '--file']);

/** For `sed`: whether it edits in place, prints selectively, and its file operands. */
function parseSed(args: Stage['words']): {
  inPlace: boolean;
  quiet: boolean;
  files: Stage['words'];
} {
  const options = args.filter((word) => word.value.startsWith('-') && word.value !== '-');
  const flags = options.map((word) => word.value);
  const inPlace = flags.some((flag) => flag.startsWith('--in-place') || /^-[a-zA-Z]*i/.test(flag));
  const quiet = flags.some(
    (flag) => flag === '--quiet' || flag === '--silent' || /^-[a-zA-Z]*n/.test(flag),
  );
  let scriptGiven = flags.some((flag) => SED_SCRIPT_OPTIONS.has(flag));
  const files: Stage['words'] = [];
  for (let i = 0; i < args.length; i++) {
    const word = args[i];
    if (word === undefined) continue;
    // BSD sed: `-i ''` is in-place editing with an empty backup suffix, not a script.
    if (word.value === '-i' && args[i + 1]?.value === '') i += 1;
    else if (SED_SCRIPT_OPTIONS.has(word.value)) i += 1;
    else if (options.includes(word)) continue;
    else if (scriptGiven) files.push(word);
    else scriptGiven = true;
  }
  return { inPlace, quiet, files };
}

function isUsablePath(word: { readonly value: string; readonly literal: boolean }): boolean {
  // `-…` is an option (or a mis-tokenized one), never a file we vouch for; `-` is stdin/stdout.
  // `~…` is the shell's home directory (tilde expansion), not a path under the workspace.
  return (
    word.literal &&
    word.value !== '' &&
    !word.value.startsWith('-') &&
    !word.value.startsWith('~') &&
    !word.value.startsWith('/dev/')
  );
}

/** The files a viewer stage prints, or undefined when the stage is not a plain viewer. */
function viewedFiles(stage: Stage): Stage['words'] | undefined {
  const [head, ...args] = commandWords(stage);
  if (head === undefined || !VIEWERS.has(head.value)) return undefined;
  if (head.value === 'sed') {
    const sed = parseSed(args);
    return sed.inPlace || !sed.quiet ? undefined : sed.files;
  }
  return operands(head.value, args);
}

function stageWrites(stage: Stage): string[] {
  const writes = stage.redirects
    .filter(
      (r) =>
        (r.op === '>' || r.op === '>>') && isUsablePath({ value: r.target, literal: r.literal }),
    )
    .map((r) => r.target);
  const [head, ...args] = commandWords(stage);
  if (head?.value === 'tee')
    writes.push(
      ...operands('tee', args)
        .filter(isUsablePath)
        .map((w) => w.value),
    );
  if (head?.value === 'sed') {
    const sed = parseSed(args);
    if (sed.inPlace) writes.push(...sed.files.filter(isUsablePath).map((w) => w.value));
  }
  return writes;
}

function redirectsStdout(redirect: Redirect): boolean {
  return (
    (redirect.op === '>' || redirect.op === '>>') &&
    (redirect.fd === undefined || redirect.fd === '1' || redirect.fd === '&')
  );
}

/**
 * Reads of a pipeline: its first stage views files, every later stage only filters stdin through
 * a viewer, and the output is not redirected away from the tool result.
 */
function pipelineReads(stages: readonly Stage[]): string[] {
  const [first, ...rest] = stages;
  if (first === undefined) return [];
  const files = viewedFiles(first);
  if (files === undefined || files.length === 0 || !files.every(isUsablePath)) return [];
  if (first.redirects.some((r) => r.op === '<' || r.op === '<<' || r.op === '<<<')) return [];
  if (stages.some((stage) => stage.redirects.some(redirectsStdout))) return [];
  const filtersOnly = rest.every((stage) => viewedFiles(stage)?.length === 0);
  return filtersOnly ? files.map((word) => word.value) : [];
}

/**
 * `file` as seen from `cwd` ('' = where the command started). `cwd` undefined means a `cd` went
 * somewhere we cannot name (a variable, an option, `cd -`): relative paths are then unknowable.
 */
function resolveIn(cwd: string | undefined, file: string): string | undefined {
  if (path.posix.isAbsolute(file)) return file;
  if (cwd === undefined) return undefined;
  return cwd === '' ? file : path.posix.join(cwd, file);
}

function known(paths: readonly (string | undefined)[]): string[] {
  return paths.filter((p): p is string => p !== undefined);
}

/**
 * The files `command` visibly reads and the files it writes, or undefined when it does neither in
 * a way we can be sure of. Paths are as written (relative ones joined to any `cd` target; after a
 * `cd` to somewhere unknowable, relative paths are dropped rather than guessed).
 */
export function classifyShellCommand(command: string): ShellFileAccess | undefined {
  const reads: string[] = [];
  const writes: string[] = [];
  let cwd: string | undefined = '';
  let onlyViewers = true;
  for (const stages of splitPipelines(tokenizeShell(command))) {
    const words = stages.length === 1 && stages[0] ? commandWords(stages[0]) : [];
    if (words[0]?.value === 'cd') {
      const target = words[1];
      cwd = target !== undefined && isUsablePath(target) ? resolveIn(cwd, target.value) : undefined;
      continue;
    }
    const viewed = known(pipelineReads(stages).map((file) => resolveIn(cwd, file)));
    if (viewed.length === 0) onlyViewers = false;
    reads.push(...viewed);
    for (const stage of stages) {
      writes.push(...known(stageWrites(stage).map((file) => resolveIn(cwd, file))));
    }
  }
  if (reads.length === 0 && writes.length === 0) return undefined;
  return {
    reads: [...new Set(reads)],
    writes: [...new Set(writes)],
    outputIsReads: onlyViewers && reads.length > 0 && writes.length === 0,
  };
}
