/**
 * `npm run bench:replay`: replays every session of the shared corpus under every context policy at
 * 128k and 32k (worker processes over the cores), then writes the replay sections of
 * docs/benchmarks.md and the context charts. Skips with a message when the corpus is absent.
 *
 * Flags: --corpus <dir> (default ../shared/corpus, or DENSE_CORPUS), --workers <n>, --only <text>
 * (sources or files containing it), --json <file> (raw runs), --no-docs (print, write nothing),
 * --policies <id,id> (only these policies: the report shows only them, a target needing another is
 * "not run", and the docs are not written), --set key=value (a setting for every run, repeatable;
 * values parsed as JSON when they are, else strings), --limits <n,n> (replay at these context limits,
 * e.g. 16k,32k,64k,128k,200k,1m, and print the window grid and high-density against `none` and
 * `recorded` per source and session instead of writing the docs), --sent <dir>
 * (also write what each run sent to each model call, one JSONL file per session, policy and window
 * under <dir>/<source>/: transcript contents, keep it private).
 * Client compaction calls (`agent-acompact-*` files) are skipped and counted; a run with no session
 * fails (exit 1).
 */
import { fork } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { errorMessage, writeFileAtomic } from '@dense/core';
import type {
  BenchRun,
  MainMessage,
  SessionCrossCheck,
  WorkerMessage,
} from './replay/benchTypes.js';
import { corpusFiles, type CorpusFile } from './replay/corpus.js';
import { benchCharts } from './replay/benchChart.js';
import { replaceReplaySections, replayMarkdown } from './replay/benchMarkdown.js';
import { parseBenchArgs, type BenchArgs } from './replay/benchArgs.js';
import { compactionCallsNote, requireSessions } from './benchSessions.js';
import { BenchOptionError, runBench } from './benchFlags.js';
import { gridMarkdown } from './replay/benchGrid.js';
import { vsRecordedMarkdown } from './replay/benchVsRecorded.js';

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

interface Failure {
  readonly file: string;
  readonly error: string;
}

interface WorkersResult {
  readonly runs: BenchRun[];
  readonly crossChecks: SessionCrossCheck[];
  readonly failures: Failure[];
  /** Client compaction-call sessions the workers left out. */
  readonly compactionCalls: number;
}

/** Runs the files over `workers` child processes, largest first; resolves with every run. */
function runWorkers(
  files: readonly CorpusFile[],
  args: Pick<BenchArgs, 'workers' | 'limits' | 'policies' | 'sent'>,
): Promise<WorkersResult> {
  const { workers, limits, policies, sent } = args;
  const queue = [...files].sort((a, b) => b.bytes - a.bytes);
  const runs: BenchRun[] = [];
  const crossChecks: SessionCrossCheck[] = [];
  const failures: Failure[] = [];
  let compactionCalls = 0;
  let finished = 0;
  const workerPath = path.join(REPO_ROOT, 'scripts/replay/benchWorker.ts');
  const env = {
    ...process.env,
    TSX_TSCONFIG_PATH: path.join(REPO_ROOT, 'scripts/tsconfig.json'),
    ...benchEnv(process.argv.slice(2)),
    ...(limits === undefined ? {} : { DENSE_BENCH_LIMITS: limits.join(',') }),
    ...(policies === undefined ? {} : { DENSE_BENCH_POLICIES: policies.join(',') }),
    ...(sent === undefined ? {} : { DENSE_BENCH_SENT: sent }),
  };
  return new Promise((resolve, reject) => {
    let alive = Math.min(workers, queue.length);
    if (alive === 0) resolve({ runs, crossChecks, failures, compactionCalls });
    for (let i = 0; i < Math.min(workers, queue.length); i++) {
      const child = fork(workerPath, [], { execArgv: process.execArgv, env });
      const next = () => {
        const job = queue.shift();
        const message: MainMessage =
          job === undefined
            ? { kind: 'stop' }
            : { kind: 'job', file: job.file, source: job.source };
        child.send(message);
      };
      child.on('message', (message: WorkerMessage) => {
        if (message.kind === 'result') {
          runs.push(...message.runs);
          crossChecks.push(...message.crossChecks);
          compactionCalls += message.compactionCalls;
        }
        if (message.kind === 'failed') failures.push({ file: message.file, error: message.error });
        if (message.kind !== 'ready') {
          finished++;
          process.stderr.write(`\rbench:replay ${finished}/${files.length} files`);
        }
        next();
      });
      child.on('error', reject);
      child.on('exit', () => {
        alive--;
        if (alive === 0) {
          process.stderr.write('\n');
          resolve({ runs, crossChecks, failures, compactionCalls });
        }
      });
    }
  });
}

/** The docs as `prettier --write` would leave them (the repo's prettier config applies). */
async function formatMarkdown(text: string, file: string): Promise<string> {
  const prettier = await import('prettier');
  const options = await prettier.resolveConfig(file);
  return prettier.format(text, { ...options, filepath: file });
}

/** `--set` for the workers. */
function benchEnv(argv: readonly string[]): Record<string, string> {
  const env: Record<string, string> = {};
  const settings: Record<string, unknown> = {};
  argv.forEach((arg, i) => {
    const pair = arg === '--set' ? argv[i + 1] : undefined;
    const eq = pair?.indexOf('=') ?? -1;
    if (pair === undefined || eq <= 0) return;
    const raw = pair.slice(eq + 1);
    let value: unknown = raw;
    try {
      value = JSON.parse(raw);
    } catch {
      value = raw;
    }
    settings[pair.slice(0, eq)] = value;
  });
  env.DENSE_BENCH_SETTINGS = JSON.stringify(settings);
  return env;
}

/** `--sent`'s directory, made before any replay: one that cannot be is a usage error. */
async function makeSentDir(dir: string): Promise<void> {
  try {
    await mkdir(dir, { recursive: true, mode: 0o700 });
  } catch (error) {
    throw new BenchOptionError(
      `bench:replay: --sent: cannot create ${dir}: ${errorMessage(error)}`,
    );
  }
}

function machine(): string {
  const cpus = os.cpus();
  const gib = Math.round(os.totalmem() / 2 ** 30);
  return `${cpus[0]?.model.trim() ?? 'unknown CPU'}, ${cpus.length} cores, ${gib} GiB, ${os.type()} ${os.release()}, Node ${process.version}`;
}

/** One warning per session whose import looks incomplete, then the count line. */
function warnIncompleteImports(runs: readonly BenchRun[], files: number, failed: number): void {
  const incomplete = new Map<string, string>();
  for (const run of runs) {
    const { file, sessionIndex, importProblem } = run.report;
    if (importProblem !== undefined) incomplete.set(`${file}#${sessionIndex}`, importProblem);
  }
  for (const [session, problem] of incomplete)
    console.error(`bench:replay: warning: ${session}: ${problem}.`);
  console.error(
    `bench:replay: ${files - failed} of ${files} files imported; ${incomplete.size} session(s) imported incompletely.`,
  );
}

/** What the import found (failures, incomplete sessions, skipped compaction calls); throws on none. */
function reportImports(result: WorkersResult, files: number, args: BenchArgs): void {
  const { runs, failures, compactionCalls } = result;
  for (const failure of failures)
    console.error(`bench:replay: ${failure.file} failed:\n${failure.error}`);
  warnIncompleteImports(runs, files, failures.length);
  const skipped = compactionCallsNote('bench:replay', compactionCalls);
  if (skipped !== '') console.error(skipped);
  requireSessions(runs.length, {
    bench: 'bench:replay',
    corpus: args.corpus,
    files,
    failed: failures.length,
    compactionCalls,
    ...(args.only === undefined ? {} : { only: args.only }),
  });
}

async function main(): Promise<number> {
  const args = parseBenchArgs(process.argv.slice(2), {
    corpus: process.env.DENSE_CORPUS ?? path.join(REPO_ROOT, '../shared/corpus'),
    workers: Math.min(2, os.cpus().length),
  });
  if (!existsSync(args.corpus)) {
    console.log(
      `bench:replay: no corpus at ${args.corpus}; nothing to replay (set DENSE_CORPUS or --corpus).`,
    );
    return 0;
  }
  const files = (await corpusFiles(args.corpus)).filter(
    (f) => args.only === undefined || f.source.includes(args.only) || f.file.includes(args.only),
  );
  if (args.sent !== undefined) await makeSentDir(args.sent);
  const start = performance.now();
  const result = await runWorkers(files, args);
  const { runs, crossChecks, failures, compactionCalls } = result;
  const wallMs = performance.now() - start;
  reportImports(result, files.length, args);
  if (args.json !== undefined) {
    await writeFileAtomic(args.json, JSON.stringify({ runs, crossChecks, failures }));
    console.error(`bench:replay: wrote ${runs.length} runs to ${args.json}`);
  }
  const meta = {
    date: new Date().toISOString().slice(0, 10),
    machine: machine(),
    wallMs,
    workers: args.workers,
    files: files.length,
    failures: failures.map((f) => f.file),
    compactionCalls,
  };
  if (args.limits !== undefined) {
    console.log(`${gridMarkdown(runs, args.limits)}\n\n${vsRecordedMarkdown(runs, args.limits)}`);
    return failures.length === 0 ? 0 : 1;
  }
  const markdown = replayMarkdown(runs, meta, crossChecks);
  if (!args.docs) {
    console.log(markdown);
    return failures.length === 0 ? 0 : 1;
  }
  const benchmarks = path.join(REPO_ROOT, 'docs/benchmarks.md');
  const updated = replaceReplaySections(readFileSync(benchmarks, 'utf8'), markdown);
  await writeFileAtomic(benchmarks, await formatMarkdown(updated, benchmarks));
  for (const chart of benchCharts(runs)) {
    await writeFileAtomic(path.join(REPO_ROOT, 'docs', chart.file), chart.svg);
  }
  console.log(
    `bench:replay: ${runs.length} runs of ${files.length} files in ${(wallMs / 1000).toFixed(1)} s on ${args.workers} workers; wrote docs/benchmarks.md and the charts.`,
  );
  return failures.length === 0 ? 0 : 1;
}

void runBench(main);
