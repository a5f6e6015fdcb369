/**
 * `npm run bench:proxy`: every Claude Code and Codex session of the shared corpus replayed as its
 * client's request sequence through `dense proxy` and straight to a cache-billing loopback mock,
 * side by side (scripts/proxy-bench/). Prints a markdown table; `--out <file>` writes the JSON.
 * Skips with a message when the corpus is absent.
 *
 * Flags: --corpus <dir> (default ../shared/corpus, or DENSE_CORPUS), --only <text> (sources or
 * files containing it), --out <file>, --workers <n> (sessions replayed at once, default 1: the
 * latency figures are cleanest alone), --window <tokens> (the client's window, e.g. 1m: recorded
 * compactions dropped, each side's client compacts only past that window's threshold, the proxy
 * keeps its default working budget for it; adds the per-session window table),
 * --working-budget <tokens|off> (the proxy's budget instead of its default), --sent <dir> (what
 * each side sent upstream, one JSONL file per session and side: scripts/proxy-bench/SentLog.ts;
 * transcript text, private).
 *
 * Besides cost, each side is judged at every model call by the replay's oracles against the
 * request it sent: grounding (the specifics the reply used next) and intent (the user's earlier
 * messages, verbatim / cut / lost); sessions are named by source and a short hash in the intent
 * table.
 *
 * Each session's client window and threshold come from its transcript (recordedClientWindow.ts);
 * the client's own compaction calls (`agent-acompact-*` files) are skipped and counted; with no
 * session to replay it fails (exit 1) instead of reporting figures over nothing.
 */
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  errorMessage,
  importTranscriptSessions,
  memoTokenCounter,
  o200kTokenCounter,
  writeFileAtomic,
} from '@dense/core';
import { runBench } from './benchFlags.js';
import { parseProxyBenchOptions, type ProxyBenchOptions } from './proxy-bench/benchOptions.js';
import { DEFAULT_PREFIX } from './proxy-bench/clientPrefix.js';
import { clientApiOf } from './proxy-bench/clientRequests.js';
import {
  clientWindowsLine,
  markdownTable,
  overall,
  sessionRow,
  type SessionRow,
} from './proxy-bench/proxyBenchReport.js';
import { replayThroughProxy } from './proxy-bench/replayThroughProxy.js';
import {
  windowOverall,
  windowRow,
  windowTable,
  type WindowRow,
} from './proxy-bench/windowReport.js';
import { groundingTable } from './proxy-bench/groundingReport.js';
import { intentTable, sessionLabel } from './proxy-bench/intentReport.js';
import { indexSession, openSessionSent, startSentIndex } from './proxy-bench/SentLog.js';
import { planIntent } from '../packages/core/src/replay/intent/planIntent.js';
import { corpusFiles, type CorpusFile } from './replay/corpus.js';
import { benchSessions, compactionCallsNote, requireSessions } from './benchSessions.js';

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CLIENT_SOURCES = /claude-code|codex/;

const memo = memoTokenCounter(o200kTokenCounter);
function count(text: string): number {
  const counted = memo.countText(text);
  if (typeof counted !== 'number')
    throw new Error('bench:proxy: the token counter must be synchronous');
  return counted;
}

interface Replayed {
  readonly rows: SessionRow[];
  readonly windowRows: WindowRow[];
  /** Compaction-call sessions left out. */
  readonly compactionCalls: number;
}

/** What every session of one run is replayed with. */
type Settings = Pick<ProxyBenchOptions, 'window' | 'workingBudget' | 'sent'>;

async function replayFile(
  file: CorpusFile,
  settings: Settings,
  failures: string[],
): Promise<Replayed> {
  const { window, workingBudget, sent } = settings;
  const rows: SessionRow[] = [];
  const windowRows: WindowRow[] = [];
  let imported;
  try {
    imported = await importTranscriptSessions(file.file);
  } catch (error) {
    failures.push(`${path.basename(file.file)}: ${errorMessage(error).split('. ')[0] ?? ''}`);
    return { rows, windowRows, compactionCalls: 0 };
  }
  const { sessions, compactionCalls } = benchSessions(imported);
  for (const [index, session] of sessions.entries()) {
    const api = clientApiOf(session);
    if (api === undefined) continue;
    const name = path.basename(file.file) + (sessions.length > 1 ? `#${index}` : '');
    const label = sessionLabel(name, file.source);
    if (sent !== undefined) {
      await indexSession(sent, { label, source: file.source, transcript: file.file, index });
    }
    const files =
      sent === undefined
        ? undefined
        : await openSessionSent(sent, label, planIntent(session.contents));
    let replay;
    try {
      replay = await replayThroughProxy({
        session,
        api,
        prefix: DEFAULT_PREFIX,
        count,
        sessionId: `bench-${name}`,
        ...(window === undefined ? {} : { window }),
        ...(workingBudget === undefined ? {} : { workingBudget }),
        ...(files === undefined ? {} : { sent: files }),
      });
    } finally {
      await files?.close();
    }
    rows.push(sessionRow(name, file.source, replay));
    if (window !== undefined)
      windowRows.push(
        windowRow({ file: name, source: file.source, window, replay, workingBudget }),
      );
    process.stderr.write(`bench:proxy ${name}: ${rows.at(-1)?.percent.toFixed(1)}%\n`);
  }
  return { rows, windowRows, compactionCalls };
}

function machine(): string {
  const cpus = os.cpus();
  return `${cpus[0]?.model.trim() ?? 'unknown CPU'}, ${cpus.length} cores, Node ${process.version}`;
}

/** Every file's sessions, `workers` files at a time, rows sorted by file. */
async function replayAll(
  files: readonly CorpusFile[],
  options: Settings & { readonly workers: number },
): Promise<Replayed & { failures: string[] }> {
  const failures: string[] = [];
  const queue = [...files];
  const results: Replayed[] = [];
  await Promise.all(
    Array.from({ length: options.workers }, async () => {
      for (let file = queue.shift(); file !== undefined; file = queue.shift()) {
        results.push(await replayFile(file, options, failures));
      }
    }),
  );
  const byFile = <T extends { file: string }>(a: T, b: T) => a.file.localeCompare(b.file);
  return {
    rows: results.flatMap((result) => result.rows).sort(byFile),
    windowRows: results.flatMap((result) => result.windowRows).sort(byFile),
    compactionCalls: results.reduce((sum, result) => sum + result.compactionCalls, 0),
    failures,
  };
}

/** Prints the tables and figures of a run; writes the JSON to `out` when given. */
async function report(
  replayed: Replayed & { readonly failures: readonly string[] },
  options: ProxyBenchOptions,
  started: number,
): Promise<void> {
  const { rows, windowRows, compactionCalls, failures } = replayed;
  const { out, window } = options;
  const windowTotal = window === undefined ? undefined : windowOverall(window, windowRows);
  const total = overall(rows);
  const meta = {
    date: new Date().toISOString().slice(0, 10),
    machine: machine(),
    wallMs: Math.round(performance.now() - started),
    tokens: 'o200k (gpt-tokenizer), block payload text',
    prefix: DEFAULT_PREFIX,
    window: window ?? 'recorded',
    skippedCompactionCalls: compactionCalls,
    workingBudget: options.workingBudget ?? 'default',
  };
  console.log(markdownTable(rows, total));
  console.log(
    `\noverall ${total.percent.toFixed(1)}% of pass-through over ${total.sessions} sessions; ` +
      `${total.compacted.percent.toFixed(1)}% on the ${total.compacted.sessions} session(s) the client compacted; ` +
      `${total.overLimit} session(s) over 100.5%; added latency p50 ${total.addedLatencyP50Ms.toFixed(1)} ms, ` +
      `p99 ${total.addedLatencyP99Ms.toFixed(1)} ms; ${meta.machine}, ${meta.date}, ${(meta.wallMs / 1000).toFixed(0)} s`,
  );
  console.log(`\n${groundingTable(rows, total.grounding)}`);
  console.log(`\n${intentTable(rows, total.intent)}`);
  if (windowTotal !== undefined) console.log(`\n${windowTable(windowRows, windowTotal)}`);
  console.log(`\n${clientWindowsLine(rows)}`);
  const skipped = compactionCallsNote('bench:proxy', compactionCalls);
  if (skipped !== '') console.log(skipped);
  for (const failure of failures) console.log(`not replayed: ${failure}`);
  if (options.sent !== undefined) {
    process.stderr.write(
      `bench:proxy: what each side sent is in ${path.resolve(options.sent)} ` +
        '(transcript text: private, keep it out of the repository)\n',
    );
  }
  if (out === undefined) return;
  const windowJson =
    windowTotal === undefined ? {} : { window: { overall: windowTotal, rows: windowRows } };
  await writeFileAtomic(
    path.resolve(out),
    JSON.stringify({ meta, overall: total, rows, ...windowJson, failures }, null, 2),
  );
}

async function main(): Promise<number> {
  const options = parseProxyBenchOptions(process.argv.slice(2));
  const { only } = options;
  const corpus = path.resolve(
    options.corpus ?? process.env.DENSE_CORPUS ?? path.join(REPO_ROOT, '../shared/corpus'),
  );
  if (!existsSync(corpus)) {
    console.log(
      `bench:proxy: no corpus at ${corpus}; nothing to replay (set DENSE_CORPUS or --corpus).`,
    );
    return 0;
  }
  const files = (await corpusFiles(corpus)).filter(
    (f) =>
      CLIENT_SOURCES.test(f.source) &&
      (only === undefined || f.source.includes(only) || f.file.includes(only)),
  );
  if (options.sent !== undefined) await startSentIndex(options.sent);
  const started = performance.now();
  const replayed = await replayAll(files, options);
  const { rows, failures, compactionCalls } = replayed;
  if (rows.length === 0) for (const failure of failures) console.error(`not replayed: ${failure}`);
  requireSessions(rows.length, {
    bench: 'bench:proxy',
    corpus,
    files: files.length,
    failed: failures.length,
    compactionCalls,
    ...(only === undefined ? {} : { only }),
  });
  await report(replayed, options, started);
  return 0;
}

void runBench(main);
