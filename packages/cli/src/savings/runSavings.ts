/**
 * `dense savings`, run: find the user's transcripts, replay each session without and with Dense
 * (`replaySavingsFile`), print the figures per source and in total, and write the `--report`
 * page. Sequences only; the figures, the words and the page are decided in their own modules.
 *
 * Exit codes: 0 when it reported (files that did not import are listed and do not fail the run:
 * a home folder routinely holds a file no importer reads), also when no transcript was found (the
 * message says where it looked); 1 when transcripts were found but no session could be replayed.
 */
import os from 'node:os';
import { errorMessage, memoTokenCounter, writeFileAtomic } from '@dense/core';
import type { CliIO } from '../args/CliSubcommand.js';
import { EXIT } from '../cliErrors.js';
import { findTranscripts, type FoundFile } from './findTranscripts.js';
import {
  formatNothingFound,
  formatNotImported,
  formatSavingsNotes,
  formatSavingsTable,
} from './formatSavings.js';
import { replaySavingsFile, type SessionReplays } from './replaySavings.js';
import { summarizeSavings } from './savingsFigures.js';
import { renderSavingsHtml } from './savingsHtml.js';
import { savingsProgress } from './savingsProgress.js';
import { SOURCE_LABELS } from './transcriptSources.js';

export interface SavingsOptions {
  /** `--path` entries; empty: the clients' own folders. */
  readonly paths: readonly string[];
  /** `--since` in ms (`Infinity`: no limit) and as given. */
  readonly sinceMs: number;
  readonly since: string;
  /** `--report FILE`. */
  readonly report?: string;
}

export interface SavingsDeps {
  /** Default: `Date.now`. */
  readonly now?: () => number;
}

interface Replayed {
  readonly sessions: SessionReplays[];
  readonly failures: { file: string; reason: string }[];
  readonly compactionCalls: number;
}

/** The first line of an error, as the reason a file was left out. */
const reasonOf = (error: unknown): string => errorMessage(error).split('\n')[0] ?? '';

async function replayAll(files: readonly FoundFile[], io: CliIO): Promise<Replayed> {
  const tokenCounter = memoTokenCounter();
  const progress = savingsProgress(io.stderr, files.length);
  const out: Replayed = { sessions: [], failures: [], compactionCalls: 0 };
  let compactionCalls = 0;
  for (const [index, found] of files.entries()) {
    progress.update(index, found.file);
    try {
      const replayed = await replaySavingsFile(found.file, {
        ...(found.source === undefined ? {} : { source: found.source }),
        tokenCounter,
      });
      out.sessions.push(...replayed.sessions);
      compactionCalls += replayed.compactionCalls;
    } catch (error) {
      // Any file's failure is that file's: it is listed, and the others are still replayed.
      out.failures.push({ file: found.file, reason: reasonOf(error) });
    }
  }
  progress.update(files.length, '');
  progress.finish();
  return { ...out, compactionCalls };
}

const UNIT_WORDS: Readonly<Record<string, string>> = { h: 'hours', d: 'days', w: 'weeks' };

/** `modified in the last 30 days`, or `all time`. */
function period(options: SavingsOptions): string {
  if (options.sinceMs === Infinity) return 'all time';
  const since = options.since
    .trim()
    .replace(
      /^(\d+)\s*([hdw])$/,
      (_, n: string, unit: string) => `${n} ${UNIT_WORDS[unit] ?? unit}`,
    );
  return `modified in the last ${since}`;
}

function heading(sessions: readonly SessionReplays[], files: number, options: SavingsOptions) {
  const sources = [...new Set(sessions.map((s) => SOURCE_LABELS[s.source]))].join(', ');
  const n = sessions.length;
  return `Dense savings: ${n} session${n === 1 ? '' : 's'} (${sources}) in ${files} file${files === 1 ? '' : 's'} ${period(options)}`;
}

export async function runSavings(
  options: SavingsOptions,
  io: CliIO,
  deps: SavingsDeps = {},
): Promise<number> {
  const now = (deps.now ?? Date.now)();
  const found = await findTranscripts({
    env: io.env,
    home: io.env.HOME ?? os.homedir(),
    paths: options.paths,
    cwd: io.cwd,
    notBefore: options.sinceMs === Infinity ? -Infinity : now - options.sinceMs,
  });
  if (found.files.length === 0) {
    io.stdout.write(`${formatNothingFound(found.looked, options.since)}\n`);
    return EXIT.ok;
  }
  const replayed = await replayAll(found.files, io);
  const failures = [...found.leftOut, ...replayed.failures];
  const compactionCalls = found.compactionCalls + replayed.compactionCalls;
  if (compactionCalls > 0) {
    io.stderr.write(
      `dense savings: left out ${compactionCalls} client compaction call file(s) (subagents/agent-acompact-*: part of their parent session's compaction).\n`,
    );
  }
  if (replayed.sessions.length === 0) {
    if (failures.length > 0) io.stdout.write(`${formatNotImported(failures)}\n`);
    io.stderr.write(
      `dense savings: none of the ${found.files.length} files found could be replayed.\n`,
    );
    return EXIT.failed;
  }
  const summary = summarizeSavings(replayed.sessions);
  io.stdout.write(
    `${heading(replayed.sessions, found.files.length - replayed.failures.length, options)}\n\n` +
      `${formatSavingsTable(summary)}\n\n${formatSavingsNotes(summary, replayed.sessions)}\n`,
  );
  if (failures.length > 0) io.stdout.write(`\n${formatNotImported(failures)}\n`);
  if (options.report !== undefined) {
    const html = renderSavingsHtml({
      sessions: replayed.sessions,
      summary,
      period: period(options),
      notImported: failures,
    });
    await writeFileAtomic(options.report, html);
    io.stderr.write(`dense savings: report written to ${options.report}\n`);
  }
  return EXIT.ok;
}
