/**
 * What `dense proxy` costs with the real Claude Code binary (pinned): the same scripted session
 * (Read a module, Edit it, Read it again, run its long test suite through Bash, module after
 * module) runs once against a cache-billing loopback upstream directly and once through
 * `dense proxy` with defaults. The upstream bills every request through core's one cache model
 * (Anthropic's 5-minute prompt cache) and reports that usage, so Claude Code sees what a real API
 * would report; the proxy and the upstream share one fake clock, advanced per scripted step, so an
 * idle gap past the cache's lifetime is the same gap for both. The proxied session's prompt cost
 * must stay within 100.5% of the direct one for a short, a long and an idle-gap session.
 */
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RecallArchive, startProxyServer, type ProxyServer } from '@dense/core';
import {
  fakeClock,
  startCostUpstream,
  type CostStep,
  type CostUpstream,
} from '../test-utils/claudeCodeCostUpstream.js';
import { claudeCodeEnv, claudeCodeSuite, runClaudeCode } from '../test-utils/claudeCodeSession.js';
import type { AgentRun } from '../test-utils/runAgentCli.js';

const { command, skipReason, title } = await claudeCodeSuite('proxy cost');

const ANSWER = 'DENSE-E2E-DONE: every module edited and tested.';
const MODULES = 6;
const MODULE_LINES = 90;
const TEST_LINES = 120;
/** Model and tool time between two requests of the session. */
const STEP_MS = 20_000;
/** Past the 5-minute cache lifetime. */
const IDLE_GAP_MS = 7 * 60_000;
const START = Date.UTC(2026, 0, 5, 9, 0, 0);
const MAX_RATIO = 1.005;

type Run = AgentRun;

interface Side {
  readonly run: Run;
  readonly upstream: CostUpstream;
}

function moduleLine(module: number, line: number): string {
  return `export const value${module}_${line} = compute(${module}, ${line}); // module ${module}, entry ${line} of the lookup table`;
}

const TEST_SCRIPT = [
  '#!/bin/sh',
  'i=1',
  `while [ $i -le ${TEST_LINES} ]; do`,
  '  echo "PASS test/module$1.test.ts > module $1 > case $i returns the value computed for input $i (3 ms)"',
  '  i=$((i+1))',
  'done',
  `echo "Tests: ${TEST_LINES} passed, ${TEST_LINES} total"`,
].join('\n');

/** A fresh workspace at `dir`: the same bytes on every run. */
async function freshWorkspace(dir: string): Promise<void> {
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  for (let module = 0; module < MODULES; module++) {
    const lines = Array.from({ length: MODULE_LINES }, (_, i) => moduleLine(module, i + 1));
    await writeFile(path.join(dir, `module${module}.ts`), `${lines.join('\n')}\n`);
  }
  await writeFile(path.join(dir, 'run-tests.sh'), `${TEST_SCRIPT}\n`);
}

/** `cycles` rounds of Read → Edit → Read → test run, module after module; a gap after `gapAfter` steps. */
function sessionSteps(workspace: string, cycles: number, gapAfter?: number): CostStep[] {
  const steps: CostStep[] = [];
  for (let cycle = 0; cycle < cycles; cycle++) {
    const module = cycle % MODULES;
    const file = path.join(workspace, `module${module}.ts`);
    const line = 5 + cycle;
    const old = `value${module}_${line} = compute(${module}, ${line});`;
    steps.push(
      { name: 'Read', input: { file_path: file }, advanceMs: STEP_MS },
      {
        name: 'Edit',
        input: { file_path: file, old_string: old, new_string: old.replace(');', ' + 1);') },
        advanceMs: STEP_MS,
      },
      { name: 'Read', input: { file_path: file }, advanceMs: STEP_MS },
      {
        name: 'Bash',
        input: { command: `sh run-tests.sh ${module}`, description: `Run module ${module} tests` },
        advanceMs: STEP_MS,
      },
    );
  }
  return steps.map((step, index) =>
    index + 1 === gapAfter ? { ...step, advanceMs: IDLE_GAP_MS } : step,
  );
}

function runClaude(cwd: string, env: NodeJS.ProcessEnv): Promise<Run> {
  return runClaudeCode({
    command,
    cwd,
    env,
    prompt: 'Edit each module in this folder and run its tests after every change.',
    model: 'claude-sonnet-4-6',
    allowedTools: 'Read,Edit,Bash',
    timeoutMs: 400_000,
    maxBuffer: 16 * 1024 * 1024,
  });
}

interface Variant {
  readonly name: string;
  readonly cycles: number;
  readonly gapAfter?: number;
}

interface Comparison {
  readonly direct: Side;
  readonly proxied: Side;
  readonly proxyLines: readonly string[];
  readonly steps: readonly CostStep[];
}

/** Runs the variant's session directly and through `dense proxy`, each from a fresh workspace and home. */
async function compare(base: string, variant: Variant): Promise<Comparison> {
  const workspace = path.join(base, 'ws');
  const home = path.join(base, 'home');
  const steps = sessionSteps(workspace, variant.cycles, variant.gapAfter);
  const env = (baseUrl: string): NodeJS.ProcessEnv =>
    claudeCodeEnv({ home, baseUrl, path: process.env.PATH ?? '' });
  const side = async (through: 'direct' | 'proxy', lines: string[]): Promise<Side> => {
    await freshWorkspace(workspace);
    await rm(home, { recursive: true, force: true });
    await mkdir(home);
    const clock = fakeClock(START);
    const upstream = await startCostUpstream({ steps, answer: ANSWER, clock });
    let proxy: ProxyServer | undefined;
    if (through === 'proxy') {
      proxy = await startProxyServer({
        anthropicUpstream: upstream.url,
        recall: new RecallArchive({ dir: path.join(base, 'recall') }),
        log: (line) => lines.push(line),
        now: () => clock.now(),
      });
    }
    const run = await runClaude(workspace, env(proxy?.url ?? upstream.url));
    await proxy?.close();
    return { run, upstream };
  };
  const proxyLines: string[] = [];
  const direct = await side('direct', []);
  const proxied = await side('proxy', proxyLines);
  return { direct, proxied, proxyLines, steps };
}

const VARIANTS: readonly Variant[] = [
  { name: 'short', cycles: 9 },
  { name: 'long', cycles: 16 },
  { name: 'idle-gap', cycles: 9, gapAfter: 18 },
];

describe.skipIf(skipReason !== undefined)(title, () => {
  const results = new Map<string, Comparison>();
  let base: string;

  beforeAll(async () => {
    base = path.join(tmpdir(), `dense-cost-cc-${process.pid}`);
    for (const variant of VARIANTS) results.set(variant.name, await compare(base, variant));
  }, 1_800_000);

  afterAll(async () => {
    for (const result of results.values()) {
      await result.direct.upstream.close();
      await result.proxied.upstream.close();
    }
    if (base !== undefined) await rm(base, { recursive: true, force: true });
  });

  function mainTurns(side: Side): number {
    return side.upstream.calls.filter((call) => call.kind === 'main').length;
  }

  for (const variant of VARIANTS) {
    it(`#23 ${variant.name}: billed cost through the proxy is at most 100.5% of direct`, () => {
      const result = results.get(variant.name);
      expect(result).toBeDefined();
      if (result === undefined) return;
      const { direct, proxied, proxyLines, steps } = result;
      for (const side of [direct, proxied]) {
        expect(side.run).toMatchObject({ code: 0 });
        expect(side.run.stdout).toContain(ANSWER);
      }
      // The same script both sides: every step answered, no client compaction on either.
      expect(mainTurns(direct)).toBe(steps.length + 1);
      expect(mainTurns(proxied)).toBe(steps.length + 1);
      for (const side of [direct, proxied]) {
        expect(side.upstream.calls.filter((call) => call.kind === 'compaction')).toHaveLength(0);
      }
      const directCost = direct.upstream.cost();
      const proxiedCost = proxied.upstream.cost();
      const peak = Math.max(...direct.upstream.calls.map((call) => call.promptTokens));
      const compacted = proxyLines.filter((line) => line.includes('compacted')).length;
      console.log(
        `${variant.name}: ${mainTurns(direct)} turns, direct ${Math.round(directCost)} units ` +
          `(peak prompt ${peak}), proxied ${Math.round(proxiedCost)} units ` +
          `(${((proxiedCost / directCost) * 100).toFixed(1)}%, ${compacted} request(s) compacted)`,
      );
      expect(proxiedCost).toBeLessThanOrEqual(directCost * MAX_RATIO);
    });
  }

  it('#23 idle-gap: the first request after the gap reads nothing from the cache on both sides', () => {
    const result = results.get('idle-gap');
    if (result === undefined) throw new Error('idle-gap variant did not run');
    for (const side of [result.direct, result.proxied]) {
      const main = side.upstream.calls.filter((call) => call.kind === 'main');
      const after = main.find((call) => call.at - START >= IDLE_GAP_MS);
      expect(after?.cacheReadTokens).toBe(0);
      expect(after?.cacheWriteTokens).toBeGreaterThan(0);
    }
  });
});
