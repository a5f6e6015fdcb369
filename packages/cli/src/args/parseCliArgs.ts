/**
 * Turns the command line into a typed outcome without side effects: the agent's configuration,
 * help or version, a registered subcommand, or a one-line usage error (exit code 2). `--set` values
 * go through core's `parseSettingValue`, the same parser `/set` uses.
 */
import path from 'node:path';
import yargs, { type Argv } from 'yargs';
import { isProviderKind, parseSettingValue, PROVIDER_KINDS } from '@dense/core';
import type { CliConfig, SettingOverride } from './CliConfig.js';
import type { CliSubcommand } from './CliSubcommand.js';

export type ParsedCli =
  | { readonly kind: 'agent'; readonly config: CliConfig }
  | { readonly kind: 'help'; readonly text: string }
  | { readonly kind: 'version' }
  | {
      readonly kind: 'subcommand';
      readonly subcommand: CliSubcommand;
      readonly args: Readonly<Record<string, unknown>>;
    }
  | { readonly kind: 'error'; readonly message: string };

export interface ParseCliOptions {
  /** Relative `--workspace` paths resolve against this directory. */
  readonly cwd: string;
  readonly subcommands?: readonly CliSubcommand[];
  /** Help text width (the terminal's columns); at most 100. */
  readonly width?: number;
}

class UsageError extends Error {}

const EXAMPLES: [string, string][] = [
  ['$0', 'chat in this directory'],
  ['$0 -p "explain @src/main.ts"', 'one answer on stdout, then exit'],
  ['$0 --profile lean --set compression.density.recencyPruning=true', ''],
];

const EPILOGUE =
  'Inside the agent type /help for commands. Keys come from OPENAI_API_KEY, ANTHROPIC_API_KEY ' +
  'or GEMINI_API_KEY. DENSE_HOME moves profiles and session recordings. Exit codes: 0 ok, ' +
  '1 failed turn, 2 bad usage.';

function buildParser(argv: readonly string[], options: ParseCliOptions): Argv {
  let parser = yargs([...argv])
    .scriptName('dense')
    .help(false)
    .version(false)
    .usage('$0 [options]\n\nA coding agent whose context stays lean (high-density context).')
    .command('$0', 'Start the agent: interactive, or one-shot with -p or piped input')
    .option('prompt', {
      alias: 'p',
      type: 'string',
      describe: 'Run one prompt, print the answer and exit (also reads a piped prompt)',
    })
    .option('provider', { type: 'string', describe: `LLM API: ${PROVIDER_KINDS.join(' | ')}` })
    .option('model', { type: 'string', requiresArg: true, describe: 'Model name' })
    .option('base-url', {
      type: 'string',
      requiresArg: true,
      describe: 'API base URL (e.g. a local OpenAI-compatible server)',
    })
    .option('profile', { type: 'string', requiresArg: true, describe: 'Load a saved profile' })
    .option('set', {
      type: 'string',
      requiresArg: true,
      describe: 'Set a setting for this session: key=value (repeatable)',
    })
    .option('yolo', {
      type: 'boolean',
      default: false,
      describe: 'Run write and shell tools without asking',
    })
    .option('workspace', {
      alias: 'w',
      type: 'string',
      requiresArg: true,
      describe: 'Workspace root (default: the current directory)',
    })
    .option('resume', {
      type: 'string',
      requiresArg: true,
      describe: "Continue a recorded session: its id, or 'latest'",
    })
    .option('help', { alias: 'h', type: 'boolean', describe: 'Show help' })
    .option('version', { alias: 'v', type: 'boolean', describe: 'Show the version' })
    .strict()
    .exitProcess(false)
    .example(EXAMPLES)
    .epilogue(EPILOGUE)
    .wrap(Math.min(100, options.width ?? 80))
    .fail((message: string | undefined, error: Error | undefined) => {
      throw new UsageError(message ?? error?.message ?? 'invalid arguments');
    });
  for (const sub of options.subcommands ?? []) {
    parser = parser.command(sub.command, sub.describe, sub.builder);
  }
  return parser;
}

function single(name: string, value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (Array.isArray(value)) {
    throw new UsageError(`--${name} was given more than once; give it once.`);
  }
  return typeof value === 'string' ? value : JSON.stringify(value);
}

function parseSetFlags(value: unknown): SettingOverride[] {
  const raws: unknown[] = value === undefined ? [] : Array.isArray(value) ? value : [value];
  return raws.map((raw) => {
    const text = String(raw);
    const equals = text.indexOf('=');
    if (equals <= 0) {
      throw new UsageError(
        `--set expects key=value, got '${text}' (e.g. --set compression.strategy=high-density).`,
      );
    }
    const key = text.slice(0, equals).trim();
    const rawValue = text.slice(equals + 1);
    const parsed = parseSettingValue(key, rawValue);
    if (!parsed.ok) throw new UsageError(`--set ${text}: ${parsed.error.message}`);
    return { key: parsed.key, raw: rawValue };
  });
}

function toConfig(args: Readonly<Record<string, unknown>>, cwd: string): CliConfig {
  const provider = single('provider', args.provider);
  if (provider !== undefined && !isProviderKind(provider.trim().toLowerCase())) {
    throw new UsageError(
      `--provider must be one of ${PROVIDER_KINDS.join(', ')}; got '${provider}'.`,
    );
  }
  const prompt = single('prompt', args.prompt);
  const model = single('model', args.model);
  const baseUrl = single('base-url', args['base-url']);
  const profile = single('profile', args.profile);
  const resume = single('resume', args.resume);
  const workspace = single('workspace', args.workspace);
  return {
    ...(prompt === undefined ? {} : { prompt }),
    ...(provider === undefined ? {} : { provider: provider.trim().toLowerCase() }),
    ...(model === undefined ? {} : { model }),
    ...(baseUrl === undefined ? {} : { baseUrl }),
    ...(profile === undefined ? {} : { profile }),
    ...(resume === undefined ? {} : { resume }),
    settings: parseSetFlags(args.set),
    yolo: args.yolo === true,
    workspace: path.resolve(cwd, workspace ?? '.'),
  };
}

function matchSubcommand(
  args: Readonly<Record<string, unknown>>,
  subcommands: readonly CliSubcommand[],
): CliSubcommand | undefined {
  const positionals: readonly unknown[] = Array.isArray(args._) ? args._ : [];
  const first = positionals[0];
  if (typeof first !== 'string' && typeof first !== 'number') return undefined;
  return subcommands.find((sub) => sub.command.split(/\s+/)[0] === String(first));
}

/**
 * `dense <subcommand> --help`: the subcommand's own help, before yargs would reject the missing
 * positionals the help is meant to explain. `undefined` when no subcommand asks for help.
 */
async function subcommandHelp(
  argv: readonly string[],
  options: ParseCliOptions,
): Promise<string | undefined> {
  const end = argv.indexOf('--');
  const flags = end === -1 ? argv : argv.slice(0, end);
  if (!flags.includes('--help') && !flags.includes('-h')) return undefined;
  const first = flags.find((arg) => !arg.startsWith('-'));
  const sub = options.subcommands?.find((s) => s.command.split(/\s+/)[0] === first);
  if (sub === undefined) return undefined;
  const parser = sub
    .builder(yargs([]).scriptName('dense').help(false).version(false))
    .usage(`$0 ${sub.command}\n\n${sub.describe}`)
    .wrap(Math.min(100, options.width ?? 80));
  return parser.getHelp();
}

/** Parses `argv` (without node and the script). Never throws and never prints. */
export async function parseCliArgs(
  argv: readonly string[],
  options: ParseCliOptions,
): Promise<ParsedCli> {
  const parser = buildParser(argv, options);
  try {
    const help = await subcommandHelp(argv, options);
    if (help !== undefined) return { kind: 'help', text: help };
    const args = (await parser.parseAsync()) as Record<string, unknown>;
    if (args.help === true) return { kind: 'help', text: await parser.getHelp() };
    if (args.version === true) return { kind: 'version' };
    const subcommand = matchSubcommand(args, options.subcommands ?? []);
    if (subcommand !== undefined) return { kind: 'subcommand', subcommand, args };
    return { kind: 'agent', config: toConfig(args, options.cwd) };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { kind: 'error', message: message.split('\n')[0] ?? message };
  }
}
