/**
 * Proxy overhead per request on Claude Code-shaped conversations of ~10k, ~100k and ~1M tokens,
 * in the steady state of a conversation: consecutive requests (n messages, then n + 2 with the
 * cache breakpoint moved to the newest message), sent alternately so every request follows one
 * of the same conversation. Side by side in one run, interleaved: a round trip straight to the
 * upstream stub (pass-through), one through a plain forwarding proxy (a loopback forwarder that,
 * like the proxy, receives the whole body, then forwards it with node:http and pipes the reply
 * back: what any proxy costs), one through the proxy with density only (the working budget off:
 * the same conversation goes upstream, minus the pointers) and one through the proxy with its
 * defaults (the working budget on: past it, a compacted conversation goes upstream); then the
 * density step alone and the memory the proxy keeps per conversation (heap and the body bytes the
 * read cache holds). The 1M-token conversation runs twice: ASCII only, and with a few non-ASCII
 * characters in its first message and in its tool outputs (as real clients send: accents, box
 * drawing). Prints a table of p50/p99.
 * Run: npx vitest bench --run packages/core/src/proxy/proxyServer.bench.ts
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, bench, describe } from 'vitest';
import { ConversationStore } from './conversationStore.js';
import { densifyRequest } from './densifyRequest.js';
import { startProxyServer } from './proxyServer.js';
import { RecallArchive } from '../recall/RecallArchive.js';
import { bigSessionTurns } from './test-utils/bigSession.js';

const SIZES = [10_000, 100_000, 1_000_000] as const;
/** The conversations measured: each size in ASCII, and the largest one with non-ASCII text too. */
const CASES: readonly Case[] = [
  ...SIZES.map((tokens) => ({ tokens, nonAscii: false })),
  { tokens: 1_000_000, nonAscii: true },
];
interface Case {
  readonly tokens: (typeof SIZES)[number];
  readonly nonAscii: boolean;
}
/** Round trips per side (pass-through, proxy) and size. */
const SAMPLES: Record<(typeof SIZES)[number], number> = {
  10_000: 400,
  100_000: 200,
  1_000_000: 100,
};

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const upstream = createServer((request, response) => {
  request.resume();
  request.on('end', () => response.end('{"usage":{"input_tokens":1,"output_tokens":1}}'));
});
await new Promise<void>((done) => upstream.listen(0, '127.0.0.1', done));
const upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
/** A plain forwarding proxy: the whole body received, then sent on; the reply piped back. */
const forwarder = createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    const body = Buffer.concat(chunks);
    const onward = httpRequest(
      `${upstreamUrl}${request.url ?? '/'}`,
      {
        method: request.method,
        headers: { ...request.headers, 'content-length': String(body.length) },
      },
      (reply) => {
        response.writeHead(reply.statusCode ?? 502, reply.headers);
        reply.pipe(response);
      },
    );
    onward.end(body);
  });
});
await new Promise<void>((done) => forwarder.listen(0, '127.0.0.1', done));
const forwarderUrl = `http://127.0.0.1:${(forwarder.address() as AddressInfo).port}`;
const recallDir = mkdtempSync(path.join(tmpdir(), 'dense-bench-recall-'));
const proxy = await startProxyServer({
  anthropicUpstream: upstreamUrl,
  maxBodyBytes: 64 << 20,
  recall: new RecallArchive({ dir: recallDir }),
  workingBudget: 'off',
});
const budgetProxy = await startProxyServer({
  anthropicUpstream: upstreamUrl,
  maxBodyBytes: 64 << 20,
  recall: new RecallArchive({ dir: recallDir }),
});

async function post(base: string, payload: Buffer, session: string): Promise<void> {
  const reply = await fetch(`${base}/v1/messages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-claude-code-session-id': session },
    body: payload,
  });
  await reply.arrayBuffer();
}

const percentile = (samples: readonly number[], q: number): number => {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
};
const label = ({ tokens, nonAscii }: Case): string =>
  `${tokens >= 1e6 ? `~${tokens / 1e6}M` : `~${tokens / 1000}k`}${nonAscii ? ', non-ASCII' : ''}`;
const ms = (value: number): string => `${value.toFixed(1)} ms`;

interface Row {
  readonly conversation: Case;
  readonly direct: readonly number[];
  /** Through the plain forwarding proxy. */
  readonly forwarded: readonly number[];
  readonly proxied: readonly number[];
  /** Through the proxy with its defaults (working budget on). */
  readonly budgeted: readonly number[];
  readonly step: readonly number[];
  /** The density step with every request read in full (no read cache). */
  readonly fullReadStep: readonly number[];
  readonly memoryMb: number;
  readonly withoutReadCacheMb: number;
}
const rows: Row[] = [];

/**
 * Memory (MB) the store keeps after two consecutive requests of one conversation, each body a
 * fresh copy as the server reads it: the heap it holds, the body bytes its read cache holds and its
 * ASCII texts (Node keeps a large one outside the heap; counted as one byte a character).
 */
function memoryPerConversation(pair: readonly Buffer[], readCache: boolean): number {
  gc();
  const before = process.memoryUsage().heapUsed;
  const store = new ConversationStore(readCache ? {} : { reads: { maxEntries: 0 } });
  for (const body of pair) {
    densifyRequest({
      api: 'anthropic',
      body: Buffer.from(body),
      sessionId: 'm',
      store,
      now: 0,
      pressureTokens: 150e3,
    });
  }
  gc();
  const { bytes, asciiChars } = store.reads.size;
  const kept = process.memoryUsage().heapUsed - before + bytes + asciiChars;
  return store.size === 1 ? kept / 2 ** 20 : NaN;
}

/** Times of the density step alone on the pair, alternately. */
function densitySteps(pair: readonly Buffer[], samples: number, store: ConversationStore) {
  const step: number[] = [];
  for (let i = -4; i < samples; i++) {
    const start = performance.now();
    const body = pair[i & 1] as Buffer;
    densifyRequest({
      api: 'anthropic',
      body,
      sessionId: 's',
      store,
      now: i,
      pressureTokens: 150e3,
    });
    if (i >= 0) step.push(performance.now() - start);
  }
  return step;
}

async function measure(conversation: Case): Promise<void> {
  if (rows.some((row) => row.conversation === conversation)) return;
  const { tokens, nonAscii } = conversation;
  const pair = bigSessionTurns(tokens, 2, { nonAscii }).map((text) => Buffer.from(text));
  const session = `bench-${tokens}-${nonAscii ? 'u' : 'a'}`;
  const direct: number[] = [];
  const forwarded: number[] = [];
  const proxied: number[] = [];
  const budgeted: number[] = [];
  for (let i = -4; i < SAMPLES[tokens]; i++) {
    const body = pair[i & 1] as Buffer;
    let start = performance.now();
    await post(upstreamUrl, body, session);
    const straight = performance.now() - start;
    start = performance.now();
    await post(forwarderUrl, body, session);
    if (i >= 0) forwarded.push(performance.now() - start);
    start = performance.now();
    await post(proxy.url, body, session);
    const throughProxy = performance.now() - start;
    start = performance.now();
    await post(budgetProxy.url, body, session);
    if (i >= 0) budgeted.push(performance.now() - start);
    if (i >= 0) proxied.push(throughProxy);
    if (i >= 0) direct.push(straight);
  }
  const step = densitySteps(pair, SAMPLES[tokens], new ConversationStore());
  const uncached = new ConversationStore({ reads: { maxEntries: 0 } });
  const fullReadStep = densitySteps(pair, SAMPLES[tokens] / 2, uncached);
  const memoryMb = memoryPerConversation(pair, true);
  const withoutReadCacheMb = memoryPerConversation(pair, false);
  rows.push({
    conversation,
    direct,
    forwarded,
    proxied,
    budgeted,
    step,
    fullReadStep,
    memoryMb,
    withoutReadCacheMb,
  });
}

const pair = (samples: readonly number[]): string =>
  `${ms(percentile(samples, 0.5))} / ${ms(percentile(samples, 0.99))}`;
/** `a` minus `b` at p50 and at p99. */
const added = (a: readonly number[], b: readonly number[]): string =>
  `${ms(percentile(a, 0.5) - percentile(b, 0.5))} / ${ms(percentile(a, 0.99) - percentile(b, 0.99))}`;

function printTable(): void {
  const lines = [
    '| conversation | pass-through p50 / p99 | plain forwarding p50 / p99 | Dense proxy p50 / p99 | added by Dense over plain forwarding p50 / p99 | added over pass-through p50 / p99 | proxy, budget on p50 / p99 | added by Dense, budget on, p50 / p99 | density step p50 / p99 | step, full read p50 / p99 | memory per conversation (read cache) |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  ];
  for (const row of rows) {
    lines.push(
      `| ${label(row.conversation)} | ${pair(row.direct)} | ${pair(row.forwarded)} | ` +
        `${pair(row.proxied)} | ${added(row.proxied, row.forwarded)} | ` +
        `${added(row.proxied, row.direct)} | ${pair(row.budgeted)} | ` +
        `${added(row.budgeted, row.forwarded)} | ${pair(row.step)} | ` +
        `${pair(row.fullReadStep)} | ${row.memoryMb.toFixed(1)} MB ` +
        `(${(row.memoryMb - row.withoutReadCacheMb).toFixed(1)} MB) |`,
    );
  }
  process.stdout.write(`\n${lines.join('\n')}\n`);
}

afterAll(async () => {
  printTable();
  await proxy.close();
  await budgetProxy.close();
  forwarder.close();
  upstream.close();
  rmSync(recallDir, { recursive: true, force: true });
});

describe('proxy overhead, side by side', () => {
  for (const conversation of CASES) {
    bench(`${label(conversation)} conversation`, () => measure(conversation), {
      iterations: 1,
      warmupIterations: 0,
      time: 0,
      warmupTime: 0,
    });
  }
});
