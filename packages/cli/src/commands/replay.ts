/**
 * `dense replay <file|dir>`: replays recorded agent sessions offline through the real pipeline
 * under one context policy and reports what it did (tokens, compressions, stale content
 * reclaimed, live content lost, prompt-cache cost). Tables on stdout, or one JSON object with
 * `--json`; a progress bar on stderr for directories. Never touches the network.
 */
import type { Argv } from 'yargs';
import {
  cacheEffectVsNone,
  checkImport,
  DenseError,
  describeImportCheck,
  getReplayPolicy,
  importTranscriptSessions,
  listTranscriptFiles,
  memoTokenCounter,
  prepareReplay,
  REPLAY_POLICY_IDS,
  replaySession,
  totalReplayReports,
  type CacheEffect,
  type ReplayPolicy,
  type ReplaySessionReport,
  type ReplayTotals,
  type SkippedRecord,
  type TokenCounter,
  writeFileAtomic,
} from '@dense/core';
import type { CliIO, CliSubcommand } from '../args/CliSubcommand.js';
import { EXIT } from '../cliErrors.js';
import {
  formatCacheEffect,
  formatProgressBar,
  formatSessionReport,
  formatSessionRows,
  formatTotals,
  formatVsRecorded,
} from './replayFormat.js';
import { renderReplayHtml, type ReportRun } from './replayHtml.js';
import { isSentLogError, sentTargets, type SentTarget } from './replaySent.js';
import {
  DEFAULT_REPLAY_CONTEXT_LIMIT,
  isBadInput,
  parseReplayArgs,
  ReplayUsageError,
  type ReplayCliOptions,
} from './replayArgs.js';

interface Progress {
  update(done: number, label: string): void;
  done(): void;
}

function progressBar(io: CliIO, total: number, enabled: boolean): Progress {
  const tty = enabled && io.stderr.isTTY === true;
  const width = Math.max(20, (io.stderr.columns ?? 80) - 1);
  return {
    update: (done, label) => {
      if (tty) io.stderr.write(`\r${formatProgressBar(done, total, label, width).padEnd(width)}`);
    },
    done: () => {
      if (tty) io.stderr.write(`\r${' '.repeat(width)}\r`);
    },
  };
}

/** One stderr line for a session whose transcript had records that could not be read. */
function skippedWarning(file: string, skipped: readonly SkippedRecord[]): string | undefined {
  const [first] = skipped;
  if (first === undefined) return undefined;
  const where = first.line === undefined ? first.path : `line ${first.line}`;
  const count =
    skipped.length === 1
      ? '1 record could not be read and was'
      : `${skipped.length} records could not be read and were`;
  return (
    `dense replay: warning: ${file}: ${count} left out ` +
    `(first: ${where}: ${first.reason}); the replay covers the rest.`
  );
}

/**
 * The policies a run replays: the chosen one, `none` (the reference for what it saved, once
 * prompt caching is priced) and, for `--report`, the report's.
 */
function policiesFor(options: ReplayCliOptions): ReplayPolicy[] {
  const ids: string[] = [options.policy.id, 'none', 'recorded'];
  if (options.report !== undefined) ids.unshift('none', 'recorded', 'middle-out', 'high-density');
  return [...new Set(ids)].map((id) =>
    id === options.policy.id ? options.policy : getReplayPolicy(id),
  );
}

/** Per policy id, one run per session of `file`, and whether any session imported completely. */
async function replayFile(
  file: string,
  options: ReplayCliOptions,
  policies: readonly ReplayPolicy[],
  tokenCounter: TokenCounter,
  warn: (line: string) => void,
  sent: SentTarget | undefined,
): Promise<{ runs: Map<string, ReportRun[]>; complete: boolean }> {
  const runs = new Map<string, ReportRun[]>(policies.map((p) => [p.id, []]));
  let complete = false;
  const sessions = await importTranscriptSessions(file);
  for (const session of sessions) {
    const warning = skippedWarning(file, session.skipped);
    if (warning !== undefined) warn(warning);
    const problem = describeImportCheck(checkImport(session));
    if (problem === undefined) complete = true;
    else {
      const name = sessions.length > 1 ? `${file}#${session.sessionIndex}` : file;
      warn(`dense replay: warning: ${name}: ${problem}.`);
    }
    const prepared = await prepareReplay(session, { tokenCounter });
    for (const policy of policies) {
      const run = await replaySession(prepared, {
        policy,
        contextLimit: options.contextLimit,
        settings: options.settings,
        tokenCounter,
        ...(sent === undefined ? {} : { sent }),
      });
      runs.get(policy.id)?.push({ report: run.report, series: run.series });
    }
  }
  return { runs, complete };
}

/** The single-session report's comparison with `none`, in words. */
export function compareWithNone(report: ReplaySessionReport, none: ReplaySessionReport): string {
  const sent = report.cumulativeInputTokens;
  const base = none.cumulativeInputTokens;
  if (base <= 0) return 'Compared with no context management: nothing was sent in either case.';
  const share = ((sent / base) * 100).toFixed(1);
  const saved = base - sent;
  const verdict =
    saved > 0
      ? `${saved.toLocaleString('en-US')} fewer input tokens`
      : saved < 0
        ? `${(-saved).toLocaleString('en-US')} more input tokens`
        : 'the same input tokens';
  return `Compared with no context management (none): ${report.strategy} sends ${share}% of its input tokens (${verdict}); the largest context was ${report.peakContextTokens.toLocaleString('en-US')} tokens instead of ${none.peakContextTokens.toLocaleString('en-US')}.`;
}

/**
 * Each report with `vsNone` and `vsRecorded`: what the policy saved or cost against `none` and
 * against the agent's own compaction, per provider.
 */
function withEffect(
  report: ReplaySessionReport,
  none: ReplaySessionReport | undefined,
  recorded: ReplaySessionReport | undefined,
): ReplaySessionReport & { readonly vsNone?: CacheEffect; readonly vsRecorded?: CacheEffect } {
  return {
    ...report,
    ...(none === undefined ? {} : { vsNone: cacheEffectVsNone(report, none) }),
    ...(recorded === undefined ? {} : { vsRecorded: cacheEffectVsNone(report, recorded) }),
  };
}

/** The effect against a baseline's runs over the same sessions, if it ran on all of them. */
function totalEffectVs(
  totals: ReplayTotals,
  reports: readonly ReplaySessionReport[],
  baseline: readonly ReplaySessionReport[],
): CacheEffect | undefined {
  return baseline.length === reports.length
    ? cacheEffectVsNone(totals, totalReplayReports(baseline))
    : undefined;
}

function writeResults(
  io: CliIO,
  options: ReplayCliOptions,
  reports: ReplaySessionReport[],
  baselines: { readonly none: readonly ReportRun[]; readonly recorded: readonly ReportRun[] },
): void {
  const totals = totalReplayReports(reports);
  const nones = baselines.none.map((run) => run.report);
  const recordeds = baselines.recorded.map((run) => run.report);
  const totalEffect = totalEffectVs(totals, reports, nones);
  const totalVsRecorded = totalEffectVs(totals, reports, recordeds);
  if (options.json) {
    const sessions = reports.map((report, i) => withEffect(report, nones[i], recordeds[i]));
    const withTotal = {
      ...totals,
      ...(totalEffect === undefined ? {} : { vsNone: totalEffect }),
      ...(totalVsRecorded === undefined ? {} : { vsRecorded: totalVsRecorded }),
    };
    io.stdout.write(`${JSON.stringify({ sessions, totals: withTotal }, null, 2)}\n`);
    return;
  }
  const [only] = reports;
  if (reports.length === 1 && only !== undefined) {
    io.stdout.write(`${formatSessionReport(only)}\n`);
    const [none] = nones;
    const [recorded] = recordeds;
    if (none !== undefined && only.strategy !== 'none') {
      io.stdout.write(`${formatCacheEffect(cacheEffectVsNone(only, none))}\n`);
      if (recorded !== undefined && only.strategy !== 'recorded') {
        io.stdout.write(`${formatVsRecorded(cacheEffectVsNone(only, recorded))}\n`);
      }
      io.stdout.write(`\n${compareWithNone(only, none)}\n`);
    }
    return;
  }
  const effect =
    (totalEffect === undefined ? '' : `${formatCacheEffect(totalEffect)}\n`) +
    (totalVsRecorded === undefined ? '' : `${formatVsRecorded(totalVsRecorded)}\n`);
  io.stdout.write(
    `${formatSessionRows(reports, totals, { none: nones, recorded: recordeds })}\n\nTotal\n${formatTotals(totals)}\n${effect}`,
  );
  const summarizer = reports.find((report) => report.summarizer !== null)?.summarizer;
  if (summarizer) io.stdout.write(`\nSummaries written by the ${summarizer}.\n`);
}

async function writeReport(
  io: CliIO,
  options: ReplayCliOptions,
  policies: readonly ReplayPolicy[],
  runs: ReadonlyMap<string, readonly ReportRun[]>,
): Promise<void> {
  const file = options.report ?? '';
  const html = renderReplayHtml({
    target: options.target,
    contextLimit: options.contextLimit,
    policies: policies.map((p) => p.id),
    runs: Object.fromEntries(runs),
  });
  await writeFileAtomic(file, html);
  io.stderr.write(`dense replay: report written to ${file}\n`);
}

/** What a run left out of a directory: one stderr line per entry, and how many count as failures. */
class LeftOut {
  readonly lines: string[] = [];
  /** Entries not replayed: files that failed to import, links not followed. */
  failures = 0;
  /** Of those, the entries the listing left out (not among the files tried). */
  unlisted = 0;

  /**
   * `import`: a listed file that failed to import; `listing`: an entry the listing left out;
   * `duplicate`: a second path to a listed file (its sessions are replayed once: no failure).
   */
  add(file: string, reason: string, cause: 'import' | 'listing' | 'duplicate'): void {
    this.lines.push(`dense replay: skipped ${file}: ${reason}`);
    if (cause === 'duplicate') return;
    this.failures += 1;
    if (cause === 'listing') this.unlisted += 1;
  }
}

/**
 * Runs the command; resolves to the exit code. Problems are one line on stderr: in a directory, a
 * file that cannot be imported (or a link that is not followed, see `listTranscriptFiles`) is
 * skipped and named with the reason, and the run exits `failed` after reporting the rest; a session
 * whose import looks incomplete (`checkImport`) is warned about and marked; the exit code is also
 * `failed` when no file imported completely. A `--sent` log that cannot be written stops the run
 * (core's `SentLogError`).
 */
export async function runReplay(options: ReplayCliOptions, io: CliIO): Promise<number> {
  const leftOut = new LeftOut();
  const files = await listTranscriptFiles(options.target, {
    onSkipped: (entry) =>
      leftOut.add(entry.path, entry.reason, entry.kind === 'duplicate' ? 'duplicate' : 'listing'),
  });
  const directory = !(files.length === 1 && files[0] === options.target);
  const progress = progressBar(io, files.length, directory);
  const tokenCounter = memoTokenCounter();
  const policies = policiesFor(options);
  const runs = new Map<string, ReportRun[]>(policies.map((p) => [p.id, []]));
  const warnings: string[] = [];
  const warn = (line: string) => warnings.push(line);
  const sentFor = sentTargets(options.sent, files);
  let completeFiles = 0;
  for (const [index, file] of files.entries()) {
    progress.update(index, file);
    try {
      const replayed = await replayFile(file, options, policies, tokenCounter, warn, sentFor(file));
      for (const [id, list] of replayed.runs) runs.get(id)?.push(...list);
      if (replayed.complete) completeFiles += 1;
    } catch (error) {
      if (!directory || !isFileFailure(error)) throw error;
      leftOut.add(file, error.message.split('\n')[0] ?? '', 'import');
    }
  }
  progress.update(files.length, '');
  progress.done();
  for (const line of [...warnings, ...leftOut.lines]) io.stderr.write(`${line}\n`);
  const reports = (runs.get(options.policy.id) ?? []).map((run) => run.report);
  if (reports.length === 0) {
    io.stderr.write(`dense replay: no session in ${options.target} could be replayed.\n`);
    return EXIT.failed;
  }
  writeResults(io, options, reports, baselinesOf(runs));
  await writeFiles(io, options, policies, runs);
  if (leftOut.failures > 0) {
    io.stderr.write(
      `dense replay: ${leftOut.failures} of ${files.length + leftOut.unlisted} files in ${options.target} were not replayed (named above); the figures cover the rest.\n`,
    );
    return EXIT.failed;
  }
  return exitAfterImports(io, options.target, completeFiles);
}

/**
 * A failure that skips one file of a directory: Dense's own errors, except a sent log that cannot
 * be written (the next file's could not be either).
 */
function isFileFailure(error: unknown): error is DenseError {
  return error instanceof DenseError && !isSentLogError(error);
}

/** What goes to files besides stdout: the `--report` page, and the `--sent` logs' line. */
async function writeFiles(
  io: CliIO,
  options: ReplayCliOptions,
  policies: readonly ReplayPolicy[],
  runs: ReadonlyMap<string, readonly ReportRun[]>,
): Promise<void> {
  if (options.report !== undefined) await writeReport(io, options, policies, runs);
  if (options.sent !== undefined) {
    io.stderr.write(`dense replay: what each model call was sent written to ${options.sent}\n`);
  }
}

function baselinesOf(runs: ReadonlyMap<string, readonly ReportRun[]>) {
  return { none: runs.get('none') ?? [], recorded: runs.get('recorded') ?? [] };
}

/** `failed` (with a line on stderr) when no file imported completely, else `ok`. */
function exitAfterImports(io: CliIO, target: string, completeFiles: number): number {
  if (completeFiles > 0) return EXIT.ok;
  io.stderr.write(
    `dense replay: no file in ${target} imported completely; the figures above describe incomplete imports.\n`,
  );
  return EXIT.failed;
}

export const replayCommand: CliSubcommand = {
  command: 'replay <path>',
  describe: 'Replay recorded agent sessions offline and report what a context strategy does',
  builder: (yargs: Argv) =>
    yargs
      .positional('path', { type: 'string', describe: 'A transcript file or a directory of them' })
      .option('strategy', {
        type: 'string',
        default: 'high-density',
        describe: `Context policy: ${REPLAY_POLICY_IDS.join(' | ')}`,
      })
      .option('set', {
        type: 'string',
        requiresArg: true,
        describe:
          "key=value: a setting on top of the policy's (as /set), e.g. compression.density.recencyRetention=5; repeatable",
      })
      .option('context-limit', {
        type: 'number',
        default: DEFAULT_REPLAY_CONTEXT_LIMIT,
        describe: 'Context window in tokens',
      })
      .option('json', { type: 'boolean', default: false, describe: 'Print one JSON object' })
      .option('report', {
        type: 'string',
        describe:
          'Also write a self-contained HTML page comparing none, recorded, middle-out, high-density and --strategy',
      })
      .option('sent', {
        type: 'string',
        requiresArg: true,
        describe:
          "Also write what each policy sent to each model call into DIR: a JSONL file per session, policy and window, a line per call (the transcripts' contents: keep DIR private)",
      }),
  async run(args, io) {
    try {
      return await runReplay(parseReplayArgs(args), io);
    } catch (error) {
      if (!(error instanceof ReplayUsageError || error instanceof DenseError)) throw error;
      io.stderr.write(`dense replay: ${error.message.split('\n')[0] ?? ''}\n`);
      return isBadInput(error) ? EXIT.usage : EXIT.failed;
    }
  },
};
