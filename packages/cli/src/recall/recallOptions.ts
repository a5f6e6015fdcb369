/**
 * `dense recall`'s options, help text and command-line parser for the fast entry point (no yargs:
 * loading it would cost most of the start-up this entry saves). The yargs subcommand declares the
 * same table, so `dense recall --help` and `dense --help` agree.
 */
import { recallRequestOf, type RecallRequest } from './recallRequest.js';

export interface RecallOption {
  readonly name: 'json' | 'lines' | 'grep' | 'head' | 'context' | 'out';
  /** Undefined for a flag that takes no value. */
  readonly value?: string;
  readonly describe: string;
}

export const RECALL_OPTIONS: readonly RecallOption[] = [
  {
    name: 'grep',
    value: 'PATTERN',
    describe:
      'Only the lines matching PATTERN (regular expression, case-insensitive), numbered, with context',
  },
  {
    name: 'lines',
    value: 'A:B',
    describe: 'Only lines A to B (1-based, inclusive; A: and :B are open-ended)',
  },
  { name: 'head', value: 'N', describe: 'Only the first N lines printed' },
  {
    name: 'context',
    value: 'N',
    describe: 'Lines of context around each --grep match (default 2)',
  },
  {
    name: 'json',
    describe: 'The original as stored (raw JSON for a message list), not the transcript',
  },
  {
    name: 'out',
    value: 'FILE',
    describe: 'For an image original: write the image to FILE (several: FILE-2, FILE-3 …)',
  },
];

export const RECALL_DESCRIBE =
  'Print the original a dense proxy pointer names (a message list as a readable transcript)';

export const RECALL_EPILOGUE = [
  'A run of client messages (the "removed messages" id of a summary) prints as a transcript:',
  '"#N role" per message, then its text, "call <tool> [<id>] <input>" and "result <tool> [<id>]"',
  'lines. An image (a summary\'s "[image: …]" line names its id) prints as one line with its media',
  'type, size and bytes; --out FILE writes it. Anything else prints exactly as stored. The views apply in this order: --lines, then',
  '--grep, then --head; --grep prints "N:line" for a match and "N-line" for context, like grep -n.',
  'Narrow first: dense recall <id> --grep PATTERN, then dense recall <id> --lines A:B.',
  '',
  'Exit codes: 0 found, 1 unknown id, 2 malformed id or bad usage (--out for an original',
  'without an image), 3 expired or evicted, 4 the recall archive could not be read or --out',
  'could not be written, 5 --grep matched no line. A closed pipe',
  '(dense recall <id> | head) ends the command quietly with 0. DENSE_HOME moves the archive.',
].join('\n');

export function recallHelpText(): string {
  const flags = RECALL_OPTIONS.map((option) => {
    const flag = `--${option.name}${option.value === undefined ? '' : ` ${option.value}`}`;
    return `  ${flag.padEnd(18)}${option.describe}`;
  });
  return [
    'dense recall <id> [--grep PATTERN] [--lines A:B] [--head N] [--json] [--out FILE]',
    '',
    RECALL_DESCRIBE,
    '',
    'Options:',
    ...flags,
    `  ${'--help'.padEnd(18)}Show this help`,
    '',
    RECALL_EPILOGUE,
    '',
  ].join('\n');
}

export type ParsedRecallArgs =
  | { readonly kind: 'help' }
  | { readonly kind: 'error'; readonly message: string }
  | { readonly kind: 'request'; readonly request: RecallRequest };

interface ArgsSoFar {
  readonly values: Record<string, string>;
  readonly ids: string[];
  json: boolean;
}

/** Reads the option at `argv[index]` into `args`; the index of its last token, or an error. */
function readOption(argv: readonly string[], index: number, args: ArgsSoFar): number | string {
  const arg = argv[index] ?? '';
  const [flag = '', inline] = arg.startsWith('--') ? splitOnce(arg.slice(2)) : [arg, undefined];
  const option = RECALL_OPTIONS.find((candidate) => candidate.name === flag);
  if (option === undefined) return `unknown option ${arg}`;
  if (option.value === undefined) {
    if (inline !== undefined) return `--${flag} takes no value`;
    args.json = true;
    return index;
  }
  const value = inline ?? argv[index + 1];
  if (value === undefined) return `--${flag} needs ${option.value}`;
  args.values[flag] = value;
  return inline === undefined ? index + 1 : index;
}

/** `dense recall`'s arguments (after the word `recall`); never throws. */
export function parseRecallArgs(argv: readonly string[]): ParsedRecallArgs {
  const args: ArgsSoFar = { values: {}, ids: [], json: false };
  for (let index = 0; index < argv.length; index++) {
    const arg = argv[index] ?? '';
    if (arg === '--help' || arg === '-h') return { kind: 'help' };
    if (arg === '--') {
      args.ids.push(...argv.slice(index + 1));
      break;
    }
    if (!arg.startsWith('-') || arg === '-') {
      args.ids.push(arg);
      continue;
    }
    const next = readOption(argv, index, args);
    if (typeof next === 'string') return { kind: 'error', message: next };
    index = next;
  }
  const { ids } = args;
  if (ids.length !== 1) {
    const message = ids.length === 0 ? 'missing the recall id' : `one recall id, not ${ids.length}`;
    return { kind: 'error', message };
  }
  const outcome = recallRequestOf({ id: ids[0] ?? '', json: args.json, ...args.values });
  return outcome.kind === 'error' ? outcome : { kind: 'request', request: outcome.request };
}

function splitOnce(text: string): [string, string | undefined] {
  const at = text.indexOf('=');
  return at < 0 ? [text, undefined] : [text.slice(0, at), text.slice(at + 1)];
}
