/**
 * `dense recall <id>` as a yargs subcommand: listed by `dense --help`, run by `main` (the `dense`
 * executable itself dispatches `recall` earlier, to `recall/recallBin.ts`, for start-up). Both
 * run `recall/runRecall.ts` with the same options. Exit codes: see `recall/recallExit.ts`.
 */
import type { Argv } from 'yargs';
import { getDensePaths, RecallArchive, recallMissingMessage } from '@dense/core';
import type { CliSubcommand } from '../args/CliSubcommand.js';
import { RECALL_DESCRIBE, RECALL_EPILOGUE, RECALL_OPTIONS } from '../recall/recallOptions.js';
import { gatewayRecallLookup } from '../recall/gatewayRecallLookup.js';
import { recallRequestOf } from '../recall/recallRequest.js';
import { runRecall as runRecallRequest, type RecallLookup } from '../recall/runRecall.js';

export { RECALL_EXIT } from '../recall/recallExit.js';
export { lookupOriginal } from '../recall/runRecall.js';

/** The archive `dense proxy` writes and `dense recall` / `dense mcp` read, for this environment. */
export function recallArchiveFor(env: NodeJS.ProcessEnv): RecallArchive {
  return new RecallArchive({ dir: getDensePaths(env).recallDir });
}

/** What `dense recall` and `dense mcp` read: a gateway's archive when `DENSE_PROXY_URL` is set. */
export function recallLookupFor(env: NodeJS.ProcessEnv): RecallLookup {
  return gatewayRecallLookup(env) ?? lookupOf(recallArchiveFor(env));
}

function lookupOf(archive: RecallArchive): RecallLookup {
  return {
    dir: archive.dir,
    lookup: (id) => archive.lookup(id),
    missingMessage: recallMissingMessage,
  };
}

/** `dense recall <id>` with no view: the transcript of a message list, else the exact bytes. */
export function runRecall(
  id: string,
  io: {
    readonly stdout: NodeJS.WritableStream;
    readonly stderr: NodeJS.WritableStream;
    readonly env: NodeJS.ProcessEnv;
  },
  archive: RecallArchive | RecallLookup = recallLookupFor(io.env),
): Promise<number> {
  const lookup = archive instanceof RecallArchive ? lookupOf(archive) : archive;
  return runRecallRequest({ id, json: false, view: undefined }, io, lookup);
}

function optionText(args: Readonly<Record<string, unknown>>, name: string): string | undefined {
  const value = args[name];
  return typeof value === 'string' || typeof value === 'number' ? String(value) : undefined;
}

export const recallCommand: CliSubcommand = {
  command: 'recall <id>',
  describe: RECALL_DESCRIBE,
  builder: (yargs: Argv) => {
    let built = yargs.positional('id', {
      type: 'string',
      describe: 'The recall id the pointer names, e.g. r0123456789',
    });
    for (const option of RECALL_OPTIONS) {
      built = built.option(option.name, {
        type: option.value === undefined ? 'boolean' : 'string',
        describe: option.describe,
        ...(option.value === undefined ? {} : { requiresArg: true }),
      });
    }
    return built.epilogue(RECALL_EPILOGUE);
  },
  async run(args, io) {
    const outcome = recallRequestOf({
      id: optionText(args, 'id') ?? '',
      json: args.json === true,
      ...Object.fromEntries(
        (['lines', 'grep', 'head', 'context'] as const).flatMap((name) => {
          const value = optionText(args, name);
          return value === undefined ? [] : [[name, value]];
        }),
      ),
    });
    if (outcome.kind === 'error') {
      io.stderr.write(`dense recall: ${outcome.message} (see dense recall --help)\n`);
      return 2;
    }
    return runRecallRequest(outcome.request, io, recallLookupFor(io.env));
  },
};
