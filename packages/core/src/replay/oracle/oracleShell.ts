/**
 * What a recorded shell command did to files, as the replay oracle judges it — its own reading,
 * independent of the classifier the strategies use. A file is **shown** when a viewer prints it
 * into the tool result (`cat`, `nl`, `less`/`more`: whole; `head`, `tail`, `sed -n`: part of it;
 * also from `< file`), piped at most through text filters (which make it partial) and not
 * redirected away. A file is **changed** by output redirection, `tee`, `sed -i`/`perl -i`, `rm`,
 * `mv`, `cp` (its target), `truncate`, `git checkout -- …`/`git restore …`. Only words that need
 * no expansion count; `cd` is followed, and after a `cd` the oracle cannot name, relative paths are
 * dropped. Pure.
 */
import path from 'node:path';
import { lexShell, type OracleToken, type OracleWord } from './oracleShellLexer.js';

export interface OracleShellEffect {
  /** Files the output shows, relative ones joined to any `cd` target. */
  readonly shows: readonly string[];
  /** Some shown file is only partly shown. */
  readonly partial: boolean;
  /** Files the command changes when it succeeds. */
  readonly changes: readonly string[];
}

interface Redirect {
  readonly op: string;
  readonly fd?: string;
  readonly target: OracleWord;
}

interface Stage {
  readonly words: OracleWord[];
  readonly redirects: Redirect[];
}

const LIST_SEPARATORS = new Set([';', ';;', '&&', '||', '&', '(', ')']);
const PIPES = new Set(['|', '|&']);
const OUTPUT_OPS = new Set(['>', '>>', '>|', '&>', '&>>']);

/** Viewers printing whole files, and those printing a part. */
const WHOLE_VIEWERS = new Set(['cat', 'nl', 'less', 'more']);
const PART_VIEWERS = new Set(['head', 'tail', 'sed']);
/** Stages a viewer's output may pass through and still be (part of) the file. */
const TEXT_FILTERS = new Set([
  ...WHOLE_VIEWERS,
  ...PART_VIEWERS,
  'grep',
  'egrep',
  'fgrep',
  'cut',
  'sort',
  'uniq',
  'awk',
  'tr',
  'column',
  'fold',
]);
/** Options that take the next word as their value, per viewer. */
const VALUE_OPTIONS: Readonly<Record<string, readonly string[]>> = {
  head: ['-n', '-c', '--lines', '--bytes'],
  tail: ['-n', '-c', '--lines', '--bytes'],
  nl: ['-b', '-d', '-f', '-h', '-i', '-l', '-n', '-s', '-v', '-w'],
};
const PREFIXES = new Set(['sudo', 'command', 'builtin', 'exec', 'nohup', 'time', 'env', '{']);

/** The pipelines of a command: lists split at `;`, `&&`, … and each into its `|` stages. */
function pipelinesOf(tokens: readonly OracleToken[]): Stage[][] {
  const pipelines: Stage[][] = [[]];
  let stage: Stage = { words: [], redirects: [] };
  let redirectOp: { op: string; fd?: string } | undefined;
  const close = (endPipeline: boolean) => {
    if (stage.words.length > 0 || stage.redirects.length > 0) pipelines.at(-1)?.push(stage);
    stage = { words: [], redirects: [] };
    if (endPipeline && (pipelines.at(-1)?.length ?? 0) > 0) pipelines.push([]);
  };
  for (const token of tokens) {
    if (token.kind === 'word') {
      if (redirectOp === undefined) stage.words.push(token.word);
      else stage.redirects.push({ ...redirectOp, target: token.word });
      redirectOp = undefined;
    } else if (PIPES.has(token.op)) close(false);
    else if (LIST_SEPARATORS.has(token.op)) close(true);
    else redirectOp = token.fd === undefined ? { op: token.op } : { op: token.op, fd: token.fd };
  }
  close(true);
  return pipelines.filter((stages) => stages.length > 0);
}

/** The command's own words: leading assignments, `sudo`, `env`, `timeout 10` … left out. */
function commandOf(stage: Stage): OracleWord[] {
  const words = stage.words;
  let i = 0;
  while (i < words.length) {
    const text = words[i]?.text ?? '';
    if (PREFIXES.has(text) || /^[A-Za-z_]\w*=/.test(text)) i++;
    else if (text === 'timeout') i += 2;
    else break;
  }
  return words.slice(i);
}

/** A word that names one file we can be sure of. */
function nameable(word: OracleWord): boolean {
  return (
    word.fixed && word.text !== '' && !word.text.startsWith('-') && !word.text.startsWith('/dev/')
  );
}

/** Operands of a command: its words but options (and their values); all after `--`. */
function operandsOf(
  args: readonly OracleWord[],
  valueOptions: readonly string[] = [],
): OracleWord[] {
  const operands: OracleWord[] = [];
  for (let i = 0; i < args.length; i++) {
    const word = args[i] as OracleWord;
    if (word.text === '--') return [...operands, ...args.slice(i + 1)];
    if (word.text.startsWith('-') && word.text !== '-') {
      if (valueOptions.includes(word.text)) i++;
      continue;
    }
    operands.push(word);
  }
  return operands;
}

interface SedCall {
  quiet: boolean;
  inPlace: boolean;
  script: boolean;
  readonly files: OracleWord[];
}

/** Applies one short-option cluster (`-n`, `-i`, `-ni.bak`) to `sed`. */
function sedFlags(sed: SedCall, text: string): void {
  sed.quiet ||= /^-[a-hj-zA-Z]*n/.test(text);
  sed.inPlace ||= text.slice(1).includes('i');
}

/** `sed`'s flags and file operands (the first non-option word is the script unless `-e` gave one). */
function sedOf(args: readonly OracleWord[]): SedCall {
  const sed: SedCall = { quiet: false, inPlace: false, script: false, files: [] };
  for (let i = 0; i < args.length; i++) {
    const text = args[i]?.text ?? '';
    if (text === '-e' || text === '--expression' || text === '-f') {
      sed.script = true;
      i++;
    } else if (text === '--quiet' || text === '--silent') sed.quiet = true;
    else if (text.startsWith('--in-place')) sed.inPlace = true;
    else if (/^-[a-zA-Z]+/.test(text)) {
      sedFlags(sed, text);
      if (text === '-i' && args[i + 1]?.text === '') i++;
    } else if (sed.script) sed.files.push(args[i] as OracleWord);
    else sed.script = true;
  }
  return sed;
}

interface Shown {
  readonly files: OracleWord[];
  readonly partial: boolean;
}

/** What the first stage of a pipeline prints of files, if it is a viewer. */
function viewerShows(stage: Stage): Shown | undefined {
  const [head, ...args] = commandOf(stage);
  const name = head?.text ?? '';
  let files: OracleWord[];
  if (name === 'sed') {
    const sed = sedOf(args);
    if (!sed.quiet || sed.inPlace) return undefined;
    files = sed.files;
  } else if (WHOLE_VIEWERS.has(name) || PART_VIEWERS.has(name)) {
    files = operandsOf(args, VALUE_OPTIONS[name]);
  } else return undefined;
  const input = stage.redirects.find((r) => r.op === '<');
  if (files.length === 0 && input !== undefined) files = [input.target];
  if (files.length === 0 || !files.every(nameable)) return undefined;
  return { files, partial: PART_VIEWERS.has(name) };
}

/** The files a pipeline prints into the result: a viewer first, text filters after, no redirect away. */
function pipelineShows(stages: readonly Stage[]): Shown | undefined {
  const [first, ...rest] = stages;
  const shown = first === undefined ? undefined : viewerShows(first);
  if (shown === undefined) return undefined;
  const redirected = stages.some((stage) =>
    stage.redirects.some((r) => OUTPUT_OPS.has(r.op) && (r.fd === undefined || r.fd === '1')),
  );
  const filters = rest.map((stage) => commandOf(stage)[0]?.text ?? '');
  if (redirected || !filters.every((name) => TEXT_FILTERS.has(name))) return undefined;
  const reshaped = filters.some((name) => !WHOLE_VIEWERS.has(name));
  return { files: shown.files, partial: shown.partial || reshaped };
}

type Changer = (args: readonly OracleWord[]) => OracleWord[];

/** `git checkout -- paths`, `git restore paths`. */
const gitChanges: Changer = (args) => {
  const [sub, ...rest] = args;
  if (sub?.text !== 'checkout' && sub?.text !== 'restore') return [];
  const dashes = rest.findIndex((w) => w.text === '--');
  if (dashes !== -1) return rest.slice(dashes + 1);
  return sub.text === 'restore' ? operandsOf(rest, ['-s', '--source']) : [];
};

/** Commands that change the files among their arguments. */
const CHANGERS: Readonly<Record<string, Changer>> = {
  tee: (args) => operandsOf(args),
  rm: (args) => operandsOf(args),
  unlink: (args) => operandsOf(args),
  mv: (args) => operandsOf(args),
  cp: (args) => operandsOf(args).slice(-1),
  truncate: (args) => operandsOf(args, ['-s', '--size']),
  sed: (args) => {
    const sed = sedOf(args);
    return sed.inPlace ? sed.files : [];
  },
  perl: (args) => {
    if (!args.some((w) => /^-\w*i/.test(w.text))) return [];
    const scriptGiven = args.some((w) => w.text === '-e' || w.text === '-E');
    const operands = operandsOf(args, ['-e', '-E']);
    return scriptGiven ? operands : operands.slice(1);
  },
  git: gitChanges,
};

/** The files a stage changes: output redirections and the changers above. */
function stageChanges(stage: Stage): OracleWord[] {
  const changed = stage.redirects.filter((r) => OUTPUT_OPS.has(r.op)).map((r) => r.target);
  const [head, ...args] = commandOf(stage);
  const changer =
    head !== undefined && Object.hasOwn(CHANGERS, head.text) ? CHANGERS[head.text] : undefined;
  return changer === undefined ? changed : [...changed, ...changer(args)];
}

/** `file` from the directory the command is in (`''`: where it started; undefined: unknown). */
function locate(cwd: string | undefined, file: string): string | undefined {
  if (path.posix.isAbsolute(file)) return file;
  if (cwd === undefined) return undefined;
  return cwd === '' ? file : path.posix.join(cwd, file);
}

function located(cwd: string | undefined, words: readonly OracleWord[]): string[] {
  return words.filter(nameable).flatMap((word) => locate(cwd, word.text) ?? []);
}

/** A `cd`/`pushd` pipeline's new directory: `false` when the pipeline is no `cd`. */
function cdTarget(stages: readonly Stage[], cwd: string | undefined): string | undefined | false {
  const words = stages.length === 1 && stages[0] !== undefined ? commandOf(stages[0]) : [];
  if (words[0]?.text !== 'cd' && words[0]?.text !== 'pushd') return false;
  const target = words[1];
  return target !== undefined && nameable(target) ? locate(cwd, target.text) : undefined;
}

/** The command's effect on files, or `undefined` when it shows and changes none the oracle can name. */
export function oracleShellEffect(command: string): OracleShellEffect | undefined {
  const shows = new Set<string>();
  const changes = new Set<string>();
  let partial = false;
  let cwd: string | undefined = '';
  for (const stages of pipelinesOf(lexShell(command))) {
    const next = cdTarget(stages, cwd);
    if (next !== false) {
      cwd = next;
      continue;
    }
    const shown = pipelineShows(stages);
    const files = located(cwd, shown?.files ?? []);
    for (const file of files) shows.add(file);
    partial ||= files.length > 0 && shown?.partial === true;
    for (const file of located(cwd, stages.flatMap(stageChanges))) changes.add(file);
  }
  if (shows.size === 0 && changes.size === 0) return undefined;
  return { shows: [...shows], partial, changes: [...changes] };
}
