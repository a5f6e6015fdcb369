/**
 * The gateway bench's throughput phase, one side at a time: at each level, `concurrency` clients
 * each send their conversation's next request as soon as the previous reply is in (no think time:
 * as fast as the side answers). A client's conversation grows to `turns` turns, then it starts a
 * new one; clients start at spread-out turns, so the sizes sent stay mixed from the first second.
 * Requests sent in the first `warmupMs` of a level are not counted, nor any finished after its end.
 * Every side gets the same conversations (same seeds).
 */
import { performance } from 'node:perf_hooks';
import { send, type Sample } from './benchClient.js';
import type { BenchSide } from './benchSides.js';
import type { MockUpstream } from './mockUpstream.js';
import { SyntheticConversation } from './SyntheticConversation.js';

export interface SaturationOptions {
  readonly side: BenchSide;
  readonly upstream: MockUpstream;
  readonly levels: readonly number[];
  readonly levelMs: number;
  readonly warmupMs: number;
  readonly turns: number;
  readonly turnTokens: number;
  readonly sessionPrefix: string;
}

export interface SaturationLevel {
  readonly concurrency: number;
  /** Requests counted (sent after the warm-up, answered before the level's end). */
  readonly samples: readonly Sample[];
  /** Requests that got no 200. */
  readonly errors: number;
  readonly requestsPerSecond: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function level(options: SaturationOptions, concurrency: number): Promise<SaturationLevel> {
  const { side, upstream, turns } = options;
  const conversation = (worker: number, cycle: number, skip: number) => {
    const made = new SyntheticConversation({
      seed: 50_000 + worker * 101 + cycle,
      sessionId: `${options.sessionPrefix}${side.name}-${concurrency}-${worker}-${cycle}`,
      turnTokens: options.turnTokens,
    });
    for (let i = 0; i < skip; i++) made.next();
    return made;
  };
  // Built before the clock starts: spread over the turns so the mix of sizes is steady.
  const first = Array.from({ length: concurrency }, (_, worker) =>
    conversation(worker, 0, Math.floor((worker * turns) / concurrency) % turns),
  );
  const counted: Sample[] = [];
  let errors = 0;
  const start = performance.now();
  const countFrom = start + options.warmupMs;
  const end = start + options.levelMs;
  const client = async (worker: number) => {
    let cycle = 0;
    let current = first[worker] as SyntheticConversation;
    while (performance.now() < end) {
      if (current.turns >= turns) current = conversation(worker, ++cycle, 0);
      const body = current.next();
      const headers = side.headers(current.sessionId, worker);
      const sessionId = current.sessionId;
      const sample = await send({ side, upstream, sessionId, body, headers });
      if (sample.sentAt < countFrom || sample.sentAt + sample.roundTripMs > end) continue;
      counted.push(sample);
      if (sample.status !== 200) errors++;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, (_, worker) => client(worker)));
  const seconds = (options.levelMs - options.warmupMs) / 1000;
  return {
    concurrency,
    samples: counted,
    errors,
    requestsPerSecond: counted.filter((sample) => sample.status === 200).length / seconds,
  };
}

export async function runSaturation(
  options: SaturationOptions,
  progress?: (line: string) => void,
): Promise<SaturationLevel[]> {
  const out: SaturationLevel[] = [];
  for (const concurrency of options.levels) {
    const result = await level(options, concurrency);
    out.push(result);
    progress?.(
      `  ${options.side.name} × ${concurrency}: ${result.requestsPerSecond.toFixed(1)} req/s, ${result.errors} errors`,
    );
    await sleep(500);
  }
  return out;
}
