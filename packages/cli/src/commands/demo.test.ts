import { mkdtemp, readdir, rm, stat, writeFile, mkdir } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DenseError } from '@dense/core';
import { captureIO } from '../test-utils/captureIO.js';
import { parseCliArgs } from '../args/parseCliArgs.js';
import { DEMO_CONTEXT_LIMIT, DEMO_VARIANTS } from '../demo/demoVariants.js';
import type { DemoReport, RunDemoOptions } from '../demo/runDemo.js';
import { createDemoCommand, demoCommand, parseDemoArgs } from './demo.js';

let dir: string;
let seen: RunDemoOptions[];

beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'dense-demo-cli-'));
  seen = [];
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A stand-in for the runner: writes a file into the work dir and a chart, returns a tiny report. */
async function fakeRunDemo(options: RunDemoOptions): Promise<DemoReport> {
  seen.push(options);
  await mkdir(path.join(options.workDir, 'middle-out'), { recursive: true });
  await writeFile(path.join(options.workDir, 'middle-out', 'edited.txt'), 'x');
  await mkdir(options.outDir, { recursive: true });
  const chartPath = path.join(options.outDir, 'chart.svg');
  await writeFile(chartPath, '<svg/>');
  const run = {
    variant: DEMO_VARIANTS[0]!,
    turnsCompleted: 10,
    contextTokens: Array.from({ length: 10 }, (_, i) => i * 100),
    peakContextTokens: 900,
    cumulativeInputTokens: 4500,
    cacheWeightedInputTokens: 900,
    modelCalls: 20,
    summarizerCalls: 1,
    toolCalls: 12,
    failedToolCalls: 1,
    compressions: [{ turn: 8, tokensBefore: 900, tokensAfter: 400 }],
    density: {
      readWrite: { count: 0, tokens: 0 },
      dedup: { count: 0, tokens: 0 },
      recency: { count: 0, tokens: 0 },
      edits: 0,
      deferredTokens: 0,
    },
    keptOut: { notes: 0, tokens: 0 },
    finalContextTokens: 900,
    threshold: 0.85,
  };
  return {
    runs: [run],
    contextLimit: options.contextLimit ?? 0,
    threshold: 0.85,
    turns: 10,
    chartPath,
    workspaces: {},
  };
}

const command = () => createDemoCommand({ runDemo: fakeRunDemo, tmpdir: () => dir, now: () => 0 });

describe('parseDemoArgs', () => {
  it('defaults to the demo context limit and a temp output directory', () => {
    expect(parseDemoArgs({}, '/work')).toEqual({
      outDir: undefined,
      contextLimit: DEMO_CONTEXT_LIMIT,
      keepWorkspaces: false,
    });
  });

  it('resolves --out against the working directory', () => {
    expect(parseDemoArgs({ out: 'charts' }, '/work').outDir).toBe(path.resolve('/work', 'charts'));
  });

  it.each([[100], [12_000.5], [Number.NaN], ['big']])('rejects --context-limit %s', (limit) => {
    expect(() => parseDemoArgs({ 'context-limit': limit }, '/work')).toThrow(
      /--context-limit must be an integer/,
    );
  });
});

describe('dense demo', () => {
  it('prints the table, the chart path and the timing, and removes the project copies', async () => {
    const { io, out } = captureIO(dir);
    expect(await command().run({ 'context-limit': 20_000 }, io)).toBe(0);
    expect(seen[0]?.contextLimit).toBe(20_000);
    expect(out.stdout).toContain('Context limit 20,000 tokens');
    expect(out.stdout).toContain('context tokens, turn 10');
    expect(out.stdout).toMatch(
      /Chart \(context tokens per turn, one line per strategy\): .*chart\.svg/,
    );
    expect(out.stdout).toContain('Ran 1 sessions × 10 turns in 0.0 s.');
    expect(out.stderr).toBe('');
    const workDir = seen[0]!.workDir;
    await expect(stat(workDir)).rejects.toThrow();
    expect((await stat(seen[0]!.outDir)).isDirectory()).toBe(true);
  });

  it('writes the chart to --out and leaves no temp directory behind', async () => {
    const { io, out } = captureIO(dir);
    expect(await command().run({ out: 'charts' }, io)).toBe(0);
    expect(seen[0]?.outDir).toBe(path.join(dir, 'charts'));
    expect(out.stdout).toContain(path.join(dir, 'charts', 'chart.svg'));
    expect((await readdir(dir)).sort()).toEqual(['charts']);
  });

  it('keeps the edited copies with --keep-workspaces and says where they are', async () => {
    const { io, out } = captureIO(dir);
    expect(await command().run({ 'keep-workspaces': true }, io)).toBe(0);
    expect((await stat(path.join(seen[0]!.workDir, 'middle-out', 'edited.txt'))).isFile()).toBe(
      true,
    );
    expect(out.stdout).toContain(`The edited project copies are in ${seen[0]!.workDir}.`);
  });

  it('a bad flag is one line on stderr and exit code 2; nothing runs', async () => {
    const { io, out } = captureIO(dir);
    expect(await command().run({ 'context-limit': 5 }, io)).toBe(2);
    expect(out.stderr).toBe(
      "dense demo: --context-limit must be an integer of at least 8000, got '5'.\n",
    );
    expect(seen).toEqual([]);
  });

  it('an --out that is not a writable directory is a usage error', async () => {
    const file = path.join(dir, 'a-file');
    await writeFile(file, '');
    const { io, out } = captureIO(dir);
    expect(await command().run({ out: path.join(file, 'sub') }, io)).toBe(2);
    expect(out.stderr).toMatch(/^dense demo: --out .* is not a writable directory/);
  });

  it('a typed failure of the run is one line on stderr and exit code 1', async () => {
    class Broken extends DenseError {
      readonly code = 'BROKEN';
    }
    const failing = createDemoCommand({
      runDemo: () => Promise.reject(new Broken('the script went off track')),
      tmpdir: () => dir,
    });
    const { io, out } = captureIO(dir);
    expect(await failing.run({}, io)).toBe(1);
    expect(out.stderr).toBe('dense demo: the script went off track\n');
    expect(await readdir(dir)).toEqual([]);
  });

  it('is a subcommand the CLI parser accepts with its flags', async () => {
    const parsed = await parseCliArgs(['demo', '--out', 'x', '--context-limit', '20000'], {
      cwd: dir,
      subcommands: [demoCommand],
    });
    expect(parsed.kind).toBe('subcommand');
    if (parsed.kind !== 'subcommand') return;
    expect(parsed.subcommand.command).toBe('demo');
    expect(parsed.args.out).toBe('x');
    expect(parsed.args['context-limit']).toBe(20_000);
  });
});
