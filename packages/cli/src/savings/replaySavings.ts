/**
 * Replays one transcript file's sessions twice: as the client ran them (`recorded`: its own
 * compactions, as recorded) and as `dense proxy` would have served them (high-density with the
 * proxy's default working budget: the proxy's compaction decision and deterministic summary, run
 * offline through the replay; core's replay has no policy that is the proxy itself). The client's
 * own compaction calls (`role: compaction-call`) are left out and counted.
 */
import {
  getReplayPolicy,
  importTranscriptSessions,
  prepareReplay,
  replaySession,
  checkImport,
  describeImportCheck,
  type ImportedSession,
  type TokenCounter,
} from '@dense/core';
import type { ReportRun } from '../commands/replayHtml.js';
import { listPriceFor, type ListPrice } from './listPrices.js';
import { proxyWorkingBudget, type ClientBudget } from './proxyWorkingBudget.js';
import { sourceOfFormat, type SavingsSource } from './transcriptSources.js';

/** One session replayed both ways. */
export interface SessionReplays {
  readonly file: string;
  readonly sessionIndex: number;
  readonly source: SavingsSource;
  readonly model?: string;
  readonly price: ListPrice;
  readonly budget: ClientBudget;
  /** The client as it ran (`recorded`). */
  readonly without: ReportRun;
  /** Through Dense (high-density, the proxy's working budget). */
  readonly with: ReportRun;
  /** Set when the import looks incomplete (`checkImport`). */
  readonly importProblem?: string;
}

export interface FileReplays {
  readonly sessions: readonly SessionReplays[];
  /** Sessions left out as the client's own compaction calls. */
  readonly compactionCalls: number;
}

/** The recorded model of a session: the session's own, else the first reply's. */
function modelOf(session: ImportedSession): string | undefined {
  if (session.model !== undefined) return session.model;
  for (const entry of session.contents) {
    const model = entry.metadata?.model;
    if (typeof model === 'string' && model !== '') return model;
  }
  return undefined;
}

async function replayBoth(
  session: ImportedSession,
  source: SavingsSource,
  tokenCounter: TokenCounter,
): Promise<SessionReplays> {
  const model = modelOf(session);
  const budget = proxyWorkingBudget(source, model);
  const prepared = await prepareReplay(session, { tokenCounter });
  const without = await replaySession(prepared, {
    policy: getReplayPolicy('recorded'),
    contextLimit: budget.window,
    tokenCounter,
  });
  const dense = await replaySession(prepared, {
    policy: getReplayPolicy('high-density'),
    contextLimit: budget.window,
    settings: { 'compression.density.workingBudget': budget.budget },
    tokenCounter,
  });
  const problem = describeImportCheck(checkImport(session));
  return {
    file: session.file,
    sessionIndex: session.sessionIndex,
    source,
    ...(model === undefined ? {} : { model }),
    price: listPriceFor(source, model),
    budget,
    without: { report: without.report, series: without.series },
    with: { report: dense.report, series: dense.series },
    ...(problem === undefined ? {} : { importProblem: problem }),
  };
}

/**
 * Every session of `file` replayed both ways. `source` is the client folder it was found in
 * (else the format's). Throws what the importer or the replay throws (a `DenseError` for a file
 * that is no transcript).
 */
export async function replaySavingsFile(
  file: string,
  options: { readonly source?: SavingsSource; readonly tokenCounter: TokenCounter },
): Promise<FileReplays> {
  const imported = await importTranscriptSessions(file);
  const sessions: SessionReplays[] = [];
  let compactionCalls = 0;
  for (const session of imported) {
    if (session.role === 'compaction-call') {
      compactionCalls += 1;
      continue;
    }
    const source = options.source ?? sourceOfFormat(session.format);
    sessions.push(await replayBoth(session, source, options.tokenCounter));
  }
  return { sessions, compactionCalls };
}
