/**
 * `dense recall` start-up: wall time of the built `dense` executable printing a small original
 * (`dense recall <id>`: start-up alone) and the first lines of a ~1.5 MB synthetic message run
 * (`dense recall <id> --head 5`: start-up, parse and render), beside bare Node (an empty module: the
 * floor) and `dense --version` (the whole CLI loaded). Spawns run interleaved, one of each per
 * round; prints p50 / min / max per side. Builds the CLI first when dist is stale; skipped when
 * the built binary has no fast `dense recall` (a build that failed left an older dist).
 * Run: npx vitest bench --run packages/cli/src/recall/recallStartup.bench.ts
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, bench, describe } from 'vitest';
import { RecallArchive } from '@dense/core';
import { DENSE_BIN, ensureBuilt } from '../test-utils/builtBinary.js';

const ID = 'r0123456789';
const SMALL_ID = 'rabcdef0123';
const ROUNDS = 21;
const home = mkdtempSync(path.join(tmpdir(), 'dense-recall-bench-'));
const empty = path.join(home, 'empty.mjs');
writeFileSync(empty, 'export {};\n');

/** 800 invented messages: a Read call and its 60-line result, 400 times. */
function syntheticRun(): string {
  const items: string[] = [];
  for (let step = 0; step < 400; step++) {
    const id = `toolu_${step}`;
    const file = `/src/widget${step}.ts`;
    const lines = Array.from(
      { length: 60 },
      (_, line) => `${line + 1}\tconst w${step}_${line} = f(${line});`,
    );
    items.push(
      JSON.stringify({
        role: 'assistant',
        content: [{ type: 'tool_use', id, name: 'Read', input: { file_path: file } }],
      }),
      JSON.stringify({
        role: 'user',
        content: [{ type: 'tool_result', tool_use_id: id, content: lines.join('\n') }],
      }),
    );
  }
  return items.join(',');
}

await new RecallArchive({ dir: path.join(home, 'recall') }).put('bench', [
  { id: ID, text: syntheticRun() },
  { id: SMALL_ID, text: 'a small tool output\nline two\n' },
]);

/** Why the bench cannot run, or undefined. */
async function notRunnable(): Promise<string | undefined> {
  const build = await ensureBuilt();
  if (build !== undefined) return build;
  const help = spawnSync(process.execPath, [DENSE_BIN, 'recall', '--help'], { encoding: 'utf8' });
  return help.stdout.includes('--grep')
    ? undefined
    : 'the built dense has no fast recall (rebuild)';
}
const build = await notRunnable();

const samples = new Map<string, number[]>();

function timed(side: string, args: readonly string[]): void {
  const start = performance.now();
  const run = spawnSync(process.execPath, args, {
    env: { PATH: process.env.PATH ?? '', DENSE_HOME: home },
    stdio: 'ignore',
  });
  const ms = performance.now() - start;
  if (run.status !== 0) throw new Error(`${side}: exit ${String(run.status)}`);
  samples.set(side, [...(samples.get(side) ?? []), ms]);
}

function p50(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)] ?? 0;
}

afterAll(() => {
  const rows = [...samples].map(([side, values]) => {
    const fmt = (ms: number) => `${Math.round(ms)} ms`;
    return `${side.padEnd(32)} p50 ${fmt(p50(values))}  min ${fmt(Math.min(...values))}  max ${fmt(Math.max(...values))}  (${values.length} runs)`;
  });
  console.log(['dense recall start-up', ...rows].join('\n'));
  rmSync(home, { recursive: true, force: true });
});

describe.skipIf(build !== undefined)(
  `dense recall start-up${build === undefined ? '' : ` (skipped: ${build})`}`,
  () => {
    bench(
      'one round: node, dense recall (small; --head 5 of 1.5 MB), dense --version',
      () => {
        timed('node (empty module)', [empty]);
        timed('dense recall <small id>', [DENSE_BIN, 'recall', SMALL_ID]);
        timed('dense recall <id> --head 5', [DENSE_BIN, 'recall', ID, '--head', '5']);
        timed('dense --version', [DENSE_BIN, '--version']);
      },
      { iterations: ROUNDS, time: 0, warmupIterations: 1 },
    );
  },
);
