/**
 * The whole demo: for each strategy, a fresh copy of the sample project and one scripted session
 * (several at once, as the machine allows: the test runs are real processes); then the chart of
 * context tokens per turn. Returns the numbers; printing is the command's job.
 */
import { mkdir, realpath, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { copyDirectory } from './copyDirectory.js';
import { DEMO_CHART_FILE, renderDemoChart } from './demoChart.js';
import { DEMO_PROJECT_DIR } from './demoProjectDir.js';
import { DEMO_CONTEXT_LIMIT, DEMO_VARIANTS, type DemoVariant } from './demoVariants.js';
import { runDemoSession, type DemoRun } from './runDemoSession.js';
import { DEMO_SCRIPT } from './script/demoScript.js';
import type { DemoTurn } from './script/scriptBuilders.js';

export interface RunDemoOptions {
  /** Scratch directory: one project copy per strategy goes below it. The caller removes it. */
  readonly workDir: string;
  /** Where the chart is written (created if missing). */
  readonly outDir: string;
  readonly contextLimit?: number;
  readonly projectDir?: string;
  readonly variants?: readonly DemoVariant[];
  readonly script?: readonly DemoTurn[];
  /** Sessions run at once; default: the available cores (at least 1). */
  readonly concurrency?: number;
  /** Progress: a strategy's run finished `turn` of `turns`. */
  readonly onProgress?: (variant: DemoVariant, turn: number, turns: number) => void;
}

export interface DemoReport {
  /** One run per variant, in the variants' order. */
  readonly runs: readonly DemoRun[];
  readonly contextLimit: number;
  /** The compression threshold of the first run (every shipped strategy defaults to 0.85). */
  readonly threshold: number;
  readonly turns: number;
  readonly chartPath: string;
  /** The project copy each strategy worked in, by variant id. */
  readonly workspaces: Readonly<Record<string, string>>;
}

/** Runs `task` over `items` with at most `limit` in flight; results keep the items' order. */
async function mapConcurrent<T, R>(
  items: readonly T[],
  limit: number,
  task: (item: T) => Promise<R>,
): Promise<R[]> {
  const results: R[] = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const index = next++;
      results[index] = await task(items[index] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
  return results;
}

/** Runs the demo; throws DemoScriptError if the script and the real tools disagree. */
export async function runDemo(options: RunDemoOptions): Promise<DemoReport> {
  const contextLimit = options.contextLimit ?? DEMO_CONTEXT_LIMIT;
  const script = options.script ?? DEMO_SCRIPT;
  const variants = options.variants ?? DEMO_VARIANTS;
  const userPromptsDir = path.join(options.workDir, 'no-prompt-overrides');
  const workspaces: Record<string, string> = {};
  const runs = await mapConcurrent(
    variants,
    options.concurrency ?? os.availableParallelism(),
    async (variant) => {
      const copy = path.join(options.workDir, variant.id);
      await copyDirectory(options.projectDir ?? DEMO_PROJECT_DIR, copy);
      const workspace = await realpath(copy);
      workspaces[variant.id] = workspace;
      return runDemoSession({
        variant,
        workspace,
        script,
        contextLimit,
        userPromptsDir,
        onTurn: (turn) => options.onProgress?.(variant, turn, script.length),
      });
    },
  );
  await mkdir(options.outDir, { recursive: true });
  const chartPath = path.join(options.outDir, DEMO_CHART_FILE);
  const threshold = runs[0]?.threshold ?? 0.85;
  await writeFile(chartPath, renderDemoChart(runs, contextLimit, threshold));
  return { runs, contextLimit, threshold, turns: script.length, chartPath, workspaces };
}
