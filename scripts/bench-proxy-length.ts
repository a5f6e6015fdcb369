/**
 * `npm run bench:proxy:length`: how the cost per model call grows with session length. One
 * synthetic Claude-Code-like session (scripts/proxy-bench/growingSession.ts) grows to the longest
 * length asked for and is replayed at a 1M-token client window (no client compaction), straight
 * to a cache-billing mock (pass-through) and through `dense proxy` with its default working budget;
 * prints the cost per call at each length side by side (markdown). `--out <file>` writes the JSON.
 *
 * Flags: --lengths <tokens,…> (default 100k,200k,400k,800k), --out <file>.
 */
import os from 'node:os';
import path from 'node:path';
import { memoTokenCounter, o200kTokenCounter, writeFileAtomic } from '@dense/core';
import { runBench } from './benchFlags.js';
import { parseLengthBenchOptions } from './proxy-bench/benchOptions.js';
import { DEFAULT_PREFIX } from './proxy-bench/clientPrefix.js';
import { costByLength, DEFAULT_BAND_TOKENS, lengthTable } from './proxy-bench/costByLength.js';
import { growingSession } from './proxy-bench/growingSession.js';
import { replayThroughProxy } from './proxy-bench/replayThroughProxy.js';
import { windowBudget } from './proxy-bench/windowReport.js';

const WINDOW = 1_000_000;

const memo = memoTokenCounter(o200kTokenCounter);
function count(text: string): number {
  const counted = memo.countText(text);
  if (typeof counted !== 'number')
    throw new Error('bench:proxy:length: the token counter must be synchronous');
  return counted;
}

async function main(): Promise<number> {
  const { lengths, out } = parseLengthBenchOptions(process.argv.slice(2));
  const started = performance.now();
  const longest = lengths.at(-1) ?? 0;
  const session = growingSession({ historyTokens: longest, count });
  const replay = await replayThroughProxy({
    session,
    api: 'anthropic',
    prefix: DEFAULT_PREFIX,
    count,
    sessionId: 'bench-length',
    window: WINDOW,
  });
  const rows = costByLength({
    passThrough: replay.bills.passThrough,
    proxy: replay.bills.proxy,
    lengths,
  });
  const cpus = os.cpus();
  const meta = {
    date: new Date().toISOString().slice(0, 10),
    machine: `${cpus[0]?.model.trim() ?? 'unknown CPU'}, ${cpus.length} cores, Node ${process.version}`,
    wallMs: Math.round(performance.now() - started),
    window: WINDOW,
    budget: windowBudget('anthropic', replay.model, WINDOW),
    band: DEFAULT_BAND_TOKENS,
    calls: replay.calls,
    budgetCompactions: replay.records.filter((record) => record.compaction?.kind === 'compacted')
      .length,
  };
  console.log(lengthTable(rows));
  console.log(
    `\n${meta.calls} calls, ${replay.model} at a ${WINDOW.toLocaleString('en')}-token window, working budget ` +
      `${meta.budget?.toLocaleString('en') ?? 'none'} (${meta.budgetCompactions} budget compactions); ` +
      `session ${((100 * replay.proxy.cost) / replay.passThrough.cost).toFixed(1)}% of pass-through; ` +
      `${meta.machine}, ${meta.date}, ${(meta.wallMs / 1000).toFixed(0)} s`,
  );
  if (out !== undefined) {
    await writeFileAtomic(path.resolve(out), JSON.stringify({ meta, rows }, null, 2));
  }
  return 0;
}

void runBench(main);
