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
 * drawing). Prints a table of p50/p99 (nearest rank: of 100 samples, p99 is the second slowest),
 * then the collector's pauses during each conversation's run (all sides share this process) and
 * how much of them fell inside each side's slowest 1 % of requests.
 * Run: npx vitest bench --run packages/core/src/proxy/http/proxyServer.bench.ts
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  constants as perfConstants,
  performance,
  PerformanceObserver,
  type NodeGCPerformanceDetail,
} from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, bench, describe } from 'vitest';
import { ConversationStore } from '../decide/conversationStore.js';
import { densifyRequest } from '../densify/densifyRequest.js';
import { startProxyServer } from './proxyServer.js';
import { RecallArchive } from '../../recall/RecallArchive.js';
import { percentile } from '../../replay/metrics/percentile.js';
import { bigSessionTurns } from '../test-utils/bigSession.js';

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

/** The collector's pauses in this process (all sides share it), to see which requests they hit. */
interface Pause {
  readonly start: number;
  readonly end: number;
  readonly major: boolean;
}
const pauses: Pause[] = [];
const gcObserver = new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    // Node sets a gc entry's detail; the types leave it off PerformanceEntry.
    const { kind } = (entry as unknown as { detail: NodeGCPerformanceDetail }).detail;
    const major = kind === perfConstants.NODE_PERFORMANCE_GC_MAJOR;
    pauses.push({ start: entry.startTime, end: entry.startTime + entry.duration, major });
  }
});
gcObserver.observe({ entryTypes: ['gc'] });

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
  readonly collector: string;
}

interface Timed {
  readonly start: number;
  readonly end: number;
}

/** Milliseconds of `pauses` inside `request`. */
const pausedIn = (pauses: readonly Pause[], request: Timed): number =>
  pauses.reduce(
    (sum, pause) =>
      sum + Math.max(0, Math.min(pause.end, request.end) - Math.max(pause.start, request.start)),
    0,
  );

/**
 * The collector's pauses during a conversation's run (mark-compacts and scavenges: count, longest)
 * and, per side, how many of its slowest 1 % of requests a pause hit and for how long in all.
 */
function collectorDuring(
  during: readonly Pause[],
  sides: { readonly [side: string]: readonly Timed[] },
): string {
  const kind = (major: boolean) => {
    const chosen = during.filter((pause) => pause.major === major);
    const longest = Math.max(0, ...chosen.map(({ start, end }) => end - start));
    return `${chosen.length} (longest ${ms(longest)})`;
  };
  const slowest = Object.values(sides).map((requests) => {
    const count = Math.max(1, Math.ceil(requests.length / 100));
    const worst = [...requests].sort((a, b) => b.end - b.start - (a.end - a.start)).slice(0, count);
    const paused = worst.map((request) => pausedIn(during, request));
    const total = paused.reduce((sum, value) => sum + value, 0);
    return `${paused.filter((value) => value > 0).length} of ${count}, ${ms(total)}`;
  });
  return `${kind(true)} | ${kind(false)} | ${slowest.join(' | ')}`;
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
  const sides = { forwarded: [] as Timed[], proxied: [] as Timed[], budgeted: [] as Timed[] };
  const firstPause = pauses.length;
  const timed = async (url: string, body: Buffer): Promise<Timed> => {
    const start = performance.now();
    await post(url, body, session);
    return { start, end: performance.now() };
  };
  for (let i = -4; i < SAMPLES[tokens]; i++) {
    const body = pair[i & 1] as Buffer;
    const straight = await timed(upstreamUrl, body);
    const forwarded = await timed(forwarderUrl, body);
    const proxied = await timed(proxy.url, body);
    const budgeted = await timed(budgetProxy.url, body);
    if (i < 0) continue;
    direct.push(straight.end - straight.start);
    sides.forwarded.push(forwarded);
    sides.proxied.push(proxied);
    sides.budgeted.push(budgeted);
  }
  const collector = collectorDuring(pauses.slice(firstPause), sides);
  const [forwarded, proxied, budgeted] = [sides.forwarded, sides.proxied, sides.budgeted].map(
    (requests) => requests.map(({ start, end }) => end - start),
  ) as [number[], number[], number[]];
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
    collector,
  });
}

const pair = (samples: readonly number[]): string =>
  `${ms(percentile(samples, 50))} / ${ms(percentile(samples, 99))}`;
/** `a` minus `b` at p50 and at p99. */
const added = (a: readonly number[], b: readonly number[]): string =>
  `${ms(percentile(a, 50) - percentile(b, 50))} / ${ms(percentile(a, 99) - percentile(b, 99))}`;

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
  const collector = [
    '| conversation | mark-compacts | scavenges | pauses in the slowest 1 %: plain forwarding | Dense proxy | proxy, budget on |',
    '| --- | ---: | ---: | ---: | ---: | ---: |',
    ...rows.map((row) => `| ${label(row.conversation)} | ${row.collector} |`),
  ];
  process.stdout.write(`\n${lines.join('\n')}\n\n${collector.join('\n')}\n`);
}

afterAll(async () => {
  printTable();
  await proxy.close();
  await budgetProxy.close();
  gcObserver.disconnect();
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
