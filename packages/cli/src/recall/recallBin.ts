/**
 * `dense recall` as the `dense` executable runs it: before the rest of the CLI is imported (no
 * yargs, ink, providers), so a call starts in about the time Node itself takes. A closed stdout
 * (`dense recall <id> | head`) ends the process quietly with 0.
 */
import { loadRecallArchive } from './loadRecallArchive.js';
import { RECALL_EXIT } from './recallExit.js';
import { parseRecallArgs, recallHelpText } from './recallOptions.js';
import { isClosedPipe, runRecall, type RecallLookup } from './runRecall.js';

export interface RecallProcess {
  readonly stdout: NodeJS.WriteStream;
  readonly stderr: NodeJS.WriteStream;
  readonly env: NodeJS.ProcessEnv;
  /** Ends the process (a closed stdout); default `process.exit`. */
  readonly exit?: (code: number) => void;
  /** Default: the archive under `env`'s Dense paths. */
  readonly archive?: RecallLookup;
}

/** Runs `dense recall <argv…>`; resolves to the exit code. */
export async function runRecallBin(argv: readonly string[], proc: RecallProcess): Promise<number> {
  const exit = proc.exit ?? ((code: number) => process.exit(code));
  proc.stdout.on('error', (error: Error) => {
    if (isClosedPipe(error)) exit(RECALL_EXIT.found);
    else {
      proc.stderr.write(`dense recall: could not write the output: ${error.message}\n`);
      exit(RECALL_EXIT.unreadable);
    }
  });
  const parsed = parseRecallArgs(argv);
  switch (parsed.kind) {
    case 'help':
      proc.stdout.write(recallHelpText());
      return RECALL_EXIT.found;
    case 'error':
      proc.stderr.write(`dense recall: ${parsed.message} (see dense recall --help)\n`);
      return RECALL_EXIT.malformed;
    case 'request': {
      const archive = proc.archive ?? (await loadRecallArchive(proc.env));
      return runRecall(parsed.request, proc, archive);
    }
    default: {
      const never: never = parsed;
      return never;
    }
  }
}
