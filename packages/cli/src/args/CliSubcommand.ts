/**
 * The extension point for `dense <subcommand>`: a module describes its yargs options and how to run,
 * and is added to the list `parseCliArgs` receives (see subcommands.ts). The default command (the
 * agent itself) is not a subcommand.
 */
import type { Argv } from 'yargs';

/** What a subcommand may touch: the process streams and environment, passed in. */
export interface CliIO {
  readonly stdin: NodeJS.ReadStream;
  readonly stdout: NodeJS.WriteStream;
  readonly stderr: NodeJS.WriteStream;
  readonly env: NodeJS.ProcessEnv;
  readonly cwd: string;
}

export interface CliSubcommand {
  /** The yargs command string, e.g. `replay <path>`. */
  readonly command: string;
  readonly describe: string;
  /** Adds the subcommand's options and positionals. */
  readonly builder: (yargs: Argv) => Argv;
  /** Runs with the parsed arguments; resolves to the exit code. */
  run(args: Readonly<Record<string, unknown>>, io: CliIO): Promise<number>;
}
