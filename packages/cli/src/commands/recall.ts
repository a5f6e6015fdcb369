/**
 * `dense recall <id>`: writes the exact original a `dense proxy` pointer names to stdout (no
 * newline added), for an agent to run through its own shell tool. Every conversation's originals
 * are searched (the agent does not know its conversation's id). Exit codes: 0 found, 1 unknown id,
 * 2 malformed id (or bad usage), 3 expired or evicted, 4 the archive could not be read.
 */
import type { Argv } from 'yargs';
import {
  errorMessage,
  getDensePaths,
  RecallArchive,
  recallMissingMessage,
  type ArchiveLookup,
  type RecallMissingReason,
} from '@dense/core';
import type { CliIO, CliSubcommand } from '../args/CliSubcommand.js';

export const RECALL_EXIT = {
  found: 0,
  unknown: 1,
  malformed: 2,
  gone: 3,
  unreadable: 4,
} as const;

const EXIT_OF: Readonly<Record<RecallMissingReason, number>> = {
  malformed: RECALL_EXIT.malformed,
  unknown: RECALL_EXIT.unknown,
  expired: RECALL_EXIT.gone,
  evicted: RECALL_EXIT.gone,
};

/** The archive `dense proxy` writes and `dense recall` / `dense mcp` read, for this environment. */
export function recallArchiveFor(env: NodeJS.ProcessEnv): RecallArchive {
  return new RecallArchive({ dir: getDensePaths(env).recallDir });
}

/** A lookup that never throws: an unreadable archive is a result too. */
export async function lookupOriginal(
  archive: RecallArchive,
  id: string,
): Promise<ArchiveLookup | { readonly kind: 'unreadable'; readonly message: string }> {
  try {
    return await archive.lookup(id);
  } catch (error) {
    return {
      kind: 'unreadable',
      message: `could not read the recall archive ${archive.dir}: ${errorMessage(error)}`,
    };
  }
}

function writeAll(stream: NodeJS.WriteStream, bytes: Buffer): Promise<void> {
  return new Promise((resolve, reject) => {
    stream.write(bytes, (error) => (error ? reject(error) : resolve()));
  });
}

export async function runRecall(
  id: string,
  io: CliIO,
  archive = recallArchiveFor(io.env),
): Promise<number> {
  const found = await lookupOriginal(archive, id);
  switch (found.kind) {
    case 'found':
      await writeAll(io.stdout, found.bytes);
      return RECALL_EXIT.found;
    case 'missing':
      io.stderr.write(`dense recall: ${recallMissingMessage(id, found.reason)}\n`);
      return EXIT_OF[found.reason];
    case 'unreadable':
      io.stderr.write(`dense recall: ${found.message}\n`);
      return RECALL_EXIT.unreadable;
    default: {
      const never: never = found;
      return never;
    }
  }
}

export const recallCommand: CliSubcommand = {
  command: 'recall <id>',
  describe: 'Print the original a dense proxy pointer names (exact bytes)',
  builder: (yargs: Argv) =>
    yargs
      .positional('id', {
        type: 'string',
        describe: 'The recall id the pointer names, e.g. r0123456789',
      })
      .epilogue(
        'Exit codes: 0 found, 1 unknown id, 2 malformed id, 3 expired or evicted, ' +
          '4 the recall archive could not be read. DENSE_HOME moves the archive.',
      ),
  run(args, io) {
    const raw = args.id;
    const id = typeof raw === 'string' || typeof raw === 'number' ? String(raw) : '';
    return runRecall(id, io);
  },
};
