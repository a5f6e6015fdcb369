/**
 * The `dense` program: parse the command line, then run help/version, a subcommand, a one-shot
 * turn (`-p` or piped stdin) or the interactive agent. Start-up problems (bad flags, a broken
 * profile, a missing key, a bad workspace) are one line on stderr and exit code 2.
 */
import { DenseError, errorMessage } from '@dense/core';
import type { CliConfig } from './args/CliConfig.js';
import type { CliIO, CliSubcommand } from './args/CliSubcommand.js';
import { parseCliArgs } from './args/parseCliArgs.js';
import { CLI_SUBCOMMANDS } from './args/subcommands.js';
import { CliError, EXIT } from './cliErrors.js';
import { runOneShot } from './oneShot/runOneShot.js';
import { buildSession } from './session/buildSession.js';
import type { CliSession } from './session/CliSession.js';
import { cliVersion } from './version.js';

export interface MainOptions {
  readonly argv: readonly string[];
  readonly io: CliIO;
  readonly subcommands?: readonly CliSubcommand[];
  /** The interactive UI (loaded lazily so one-shot runs never import ink). */
  readonly runInteractive?: (cli: CliSession, io: CliIO) => Promise<number>;
}

async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) {
    chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** The one-shot prompt (`-p` and/or piped stdin), or `undefined` for an interactive session. */
async function oneShotPrompt(config: CliConfig, io: CliIO): Promise<string | undefined> {
  const piped = io.stdin.isTTY !== true;
  if (config.prompt === undefined && !piped) return undefined;
  const stdinText = piped ? (await readAll(io.stdin)).trim() : '';
  const prompt = [config.prompt?.trim() ?? '', stdinText].filter((p) => p !== '').join('\n\n');
  if (prompt === '') {
    throw new CliError('CLI_NO_PROMPT', 'No prompt: pass -p "<prompt>" or pipe one on stdin.');
  }
  return prompt;
}

function interruptHandler(): (cancel: () => void) => () => void {
  return (cancel) => {
    let pressed = false;
    const onSigint = (): void => {
      if (pressed) process.exit(130);
      pressed = true;
      cancel();
    };
    process.on('SIGINT', onSigint);
    return () => process.off('SIGINT', onSigint);
  };
}

async function defaultInteractive(cli: CliSession, io: CliIO): Promise<number> {
  const { runInteractive } = await import('./ui/runInteractive.js');
  return runInteractive(cli, io);
}

async function runAgent(config: CliConfig, options: MainOptions): Promise<number> {
  const { io } = options;
  let prompt: string | undefined;
  let cli: CliSession;
  try {
    prompt = await oneShotPrompt(config, io);
    cli = await buildSession(config, { env: io.env, interactive: prompt === undefined });
  } catch (error) {
    if (!(error instanceof DenseError)) throw error;
    io.stderr.write(`dense: ${error.message}\n`);
    return EXIT.usage;
  }
  try {
    if (prompt !== undefined) {
      return await runOneShot(cli, prompt, {
        stdout: io.stdout,
        stderr: io.stderr,
        onInterrupt: interruptHandler(),
      });
    }
    return await (options.runInteractive ?? defaultInteractive)(cli, io);
  } finally {
    await cli.settled();
    cli.dispose();
  }
}

/** Runs the program; resolves to the process exit code. Never throws. */
export async function main(options: MainOptions): Promise<number> {
  const { io } = options;
  const subcommands = options.subcommands ?? CLI_SUBCOMMANDS;
  try {
    const parsed = await parseCliArgs(options.argv, {
      cwd: io.cwd,
      subcommands,
      ...(io.stdout.columns ? { width: io.stdout.columns } : {}),
    });
    switch (parsed.kind) {
      case 'error':
        io.stderr.write(`dense: ${parsed.message} (see dense --help)\n`);
        return EXIT.usage;
      case 'help':
        io.stdout.write(`${parsed.text}\n`);
        return EXIT.ok;
      case 'version':
        io.stdout.write(`${cliVersion()}\n`);
        return EXIT.ok;
      case 'subcommand':
        return await parsed.subcommand.run(parsed.args, io);
      case 'agent':
        return await runAgent(parsed.config, options);
    }
  } catch (error) {
    io.stderr.write(`dense: unexpected error: ${errorMessage(error)}\n`);
    return EXIT.failed;
  }
}
