/**
 * Status line start-up: wall time of the built `dense statusline` and of the documented `curl`
 * command (through `sh -c`, as Claude Code runs it) answering Claude Code's status line JSON,
 * beside bare Node (an empty module: the floor). Two cases: a proxy that knows the session (a
 * loopback server answering `POST /dense/statusline` with the proxy's own `statusLineOf` over a
 * canned stats JSON of 256 conversations) and no proxy (the connection refused). Spawns run
 * interleaved, one of each per round; prints p50 / min / max per side. Builds the CLI first when
 * dist is stale.
 * Run: npx vitest bench --run packages/cli/src/statusline/statuslineStartup.bench.ts
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, bench, describe } from 'vitest';
import { statusLineOf } from '@dense/core';
import { DENSE_BIN, ensureBuilt } from '../test-utils/builtBinary.js';

const ROUNDS = 21;
const SESSION = '9a8b7c6d-1234-4abc-8def-0123456789ab';
const dir = mkdtempSync(path.join(tmpdir(), 'dense-statusline-bench-'));
const empty = path.join(dir, 'empty.mjs');
writeFileSync(empty, 'export {};\n');

const totals = (n: number) => ({
  requests: n,
  contextUpstreamTokens: 40_000 + n,
  contextClientTokens: 150_000 + n,
  billedCost: 60_000,
  passThroughCost: 100_000,
  compactionsAvoided: 1,
});
const conversations = Object.fromEntries(
  Array.from({ length: 256 }, (_, n) => [
    `session:${n === 255 ? SESSION : `s${n}`}:h${n}`,
    totals(n),
  ]),
);
const stats = { totals: totals(0), conversations, recent: [] };
const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => res.end(statusLineOf(Buffer.concat(chunks).toString(), stats)));
});
await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
const proxyUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
const closed = createServer();
await new Promise<void>((done) => closed.listen(0, '127.0.0.1', done));
const closedUrl = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
await new Promise((done) => closed.close(done));

const build = await ensureBuilt();
const input = JSON.stringify({ session_id: SESSION, model: { id: 'claude-sonnet-4-6' } });
const samples = new Map<string, number[]>();

function timed(side: string, command: readonly string[], env: NodeJS.ProcessEnv): Promise<void> {
  return new Promise((resolve, reject) => {
    const start = performance.now();
    const [file = process.execPath, ...args] = command;
    const child = spawn(file, args, {
      env: { PATH: process.env.PATH ?? '', ...env },
      stdio: ['pipe', 'pipe', 'ignore'],
    });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.on('close', (code) => {
      const ms = performance.now() - start;
      if (code !== 0) return reject(new Error(`${side}: exit ${String(code)}`));
      if (side.includes('known') && !out.startsWith('dense ▸')) {
        return reject(new Error(`${side}: no line (${out})`));
      }
      samples.set(side, [...(samples.get(side) ?? []), ms]);
      resolve();
    });
    child.stdin.end(input);
  });
}

function p50(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)] ?? 0;
}

afterAll(() => {
  const rows = [...samples].map(([side, values]) => {
    const fmt = (ms: number) => `${Math.round(ms)} ms`;
    return `${side.padEnd(36)} p50 ${fmt(p50(values))}  min ${fmt(Math.min(...values))}  max ${fmt(Math.max(...values))}  (${values.length} runs)`;
  });
  console.log(['dense statusline start-up', ...rows].join('\n'));
  server.close();
  rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(build !== undefined)(
  `dense statusline start-up${build === undefined ? '' : ` (skipped: ${build})`}`,
  () => {
    bench(
      'one round: node, dense statusline and curl (known session; no proxy)',
      async () => {
        const node = process.execPath;
        const curl = (url: string) => [
          'sh',
          '-c',
          `curl -sf -m 1 --data-binary @- ${url}/dense/statusline || true`,
        ];
        await timed('node (empty module)', [node, empty], {});
        await timed('dense statusline (known session)', [node, DENSE_BIN, 'statusline'], {
          DENSE_PROXY_URL: proxyUrl,
        });
        await timed('dense statusline (no proxy)', [node, DENSE_BIN, 'statusline'], {
          DENSE_PROXY_URL: closedUrl,
        });
        await timed('curl (known session)', curl(proxyUrl), {});
        await timed('curl (no proxy)', curl(closedUrl), {});
      },
      { iterations: ROUNDS, time: 0, warmupIterations: 1 },
    );
  },
);
