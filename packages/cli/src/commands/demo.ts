/**
 * `dense demo`: runs the scripted 44-turn coding session on the bundled sample project offline
 * under each strategy, prints the side-by-side table and writes the SVG chart. Never touches the
 * network; the project copies live in a temp directory that is removed afterwards.
 */
import { access, constants, mkdir, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Argv } from 'yargs';
import { DenseError, errorMessage } from '@dense/core';
import type { CliIO, CliSubcommand } from '../args/CliSubcommand.js';
import { EXIT } from '../cliErrors.js';
import { DEMO_CONTEXT_LIMIT } from '../demo/demoVariants.js';
import { formatDemoTable } from '../demo/formatDemoTable.js';
import { runDemo, type RunDemoOptions, type DemoReport } from '../demo/runDemo.js';

export interface DemoCliOptions {
  /** Where the chart goes; default: a new temp directory. */
  readonly outDir: string | undefined;
  readonly contextLimit: number;
  readonly keepWorkspaces: boolean;
}

class DemoUsageError extends Error {}

/** The smallest window in which every turn of the script fits (with the reply reserve). */
export const MIN_DEMO_CONTEXT_LIMIT = 8_000;

/** The command's options from yargs' arguments; throws a usage error with a one-line message. */
export function parseDemoArgs(
  args: Readonly<Record<string, unknown>>,
  cwd: string,
): DemoCliOptions {
  const limit = args['context-limit'] ?? DEMO_CONTEXT_LIMIT;
  if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < MIN_DEMO_CONTEXT_LIMIT) {
    throw new DemoUsageError(
      `--context-limit must be an integer of at least ${MIN_DEMO_CONTEXT_LIMIT}, got '${typeof limit === 'number' ? String(limit) : (JSON.stringify(limit) ?? '')}'.`,
    );
  }
  const out = args.out;
  if (out !== undefined && (typeof out !== 'string' || out === '')) {
    throw new DemoUsageError('--out needs a directory.');
  }
  return {
    outDir: out === undefined ? undefined : path.resolve(cwd, out),
    contextLimit: limit,
    keepWorkspaces: args['keep-workspaces'] === true,
  };
}

export interface DemoCommandDeps {
  readonly runDemo?: (options: RunDemoOptions) => Promise<DemoReport>;
  readonly tmpdir?: () => string;
  readonly now?: () => number;
}

function progress(io: CliIO): RunDemoOptions['onProgress'] {
  if (io.stderr.isTTY !== true) return undefined;
  return (variant, turn, turns) => {
    io.stderr.write(`\r${`dense demo: ${variant.label} turn ${turn}/${turns}`.padEnd(60)}`);
  };
}

async function checkOutDir(dir: string): Promise<void> {
  try {
    await mkdir(dir, { recursive: true });
    await access(dir, constants.W_OK);
  } catch (error) {
    throw new DemoUsageError(`--out ${dir} is not a writable directory (${errorMessage(error)}).`);
  }
}

/** Runs the demo and prints its report; resolves to the exit code. */
export async function runDemoCommand(
  options: DemoCliOptions,
  io: CliIO,
  deps: DemoCommandDeps = {},
): Promise<number> {
  const now = deps.now ?? Date.now;
  if (options.outDir !== undefined) await checkOutDir(options.outDir);
  const root = await mkdtemp(path.join((deps.tmpdir ?? os.tmpdir)(), 'dense-demo-'));
  const workDir = path.join(root, 'projects');
  const started = now();
  let succeeded = false;
  const onProgress = progress(io);
  try {
    const report = await (deps.runDemo ?? runDemo)({
      workDir,
      outDir: options.outDir ?? root,
      contextLimit: options.contextLimit,
      ...(onProgress === undefined ? {} : { onProgress }),
    });
    const seconds = ((now() - started) / 1000).toFixed(1);
    const kept = options.keepWorkspaces
      ? `The edited project copies are in ${workDir}.`
      : 'The edited project copies were removed (keep them with --keep-workspaces).';
    io.stdout.write(
      `${formatDemoTable(report)}\n\nChart (context tokens per turn, one line per strategy): ${report.chartPath}\n` +
        `Ran ${report.runs.length} sessions × ${report.turns} turns in ${seconds} s. ${kept}\n`,
    );
    succeeded = true;
    return EXIT.ok;
  } finally {
    if (onProgress !== undefined) io.stderr.write(`\r${' '.repeat(60)}\r`);
    // The temp root holds the chart only when it is the output directory and the run succeeded.
    if (!options.keepWorkspaces) {
      const chartInRoot = succeeded && options.outDir === undefined;
      await rm(chartInRoot ? workDir : root, { recursive: true, force: true });
    }
  }
}

/** The `demo` subcommand; `deps` replace the runner, temp dir and clock in tests. */
export function createDemoCommand(deps: DemoCommandDeps = {}): CliSubcommand {
  return {
    command: 'demo',
    describe: 'Run a scripted 44-turn coding session offline under each strategy and compare them',
    builder: (yargs: Argv) =>
      yargs
        .option('out', {
          type: 'string',
          requiresArg: true,
          describe: 'Directory for the SVG chart (default: a new temp directory)',
        })
        .option('context-limit', {
          type: 'number',
          default: DEMO_CONTEXT_LIMIT,
          describe: 'Context window in tokens for every strategy',
        })
        .option('keep-workspaces', {
          type: 'boolean',
          default: false,
          describe: 'Keep the edited copies of the sample project',
        }),
    async run(args, io) {
      try {
        return await runDemoCommand(parseDemoArgs(args, io.cwd), io, deps);
      } catch (error) {
        if (!(error instanceof DemoUsageError || error instanceof DenseError)) throw error;
        io.stderr.write(`dense demo: ${error.message}\n`);
        return error instanceof DemoUsageError ? EXIT.usage : EXIT.failed;
      }
    },
  };
}

export const demoCommand: CliSubcommand = createDemoCommand();
