/**
 * A worker process of the replay bench: imports each file it is sent and replays every session in
 * it under every policy and context limit, then sends the runs back. Holds one memoizing token
 * counter for its lifetime, so the entries shared by all policies are tokenized once.
 */
import {
  getReplayPolicy,
  importTranscriptSessions,
  memoTokenCounter,
  prepareReplay,
  REPLAY_POLICY_IDS,
  replaySession,
  type PreparedReplay,
  type ReplayPolicyId,
  type EphemeralSettings,
} from '@dense/core';
import {
  BENCH_LIMITS,
  type BenchJob,
  type BenchRun,
  type MainMessage,
  type WorkerMessage,
} from './benchTypes.js';

const tokenCounter = memoTokenCounter();

/** `--policies a,b` and `--set k=v` of bench-replay reach the workers through the environment. */
const onlyPolicies = process.env.DENSE_BENCH_POLICIES?.split(',').filter((p) => p !== '');
const extraSettings = JSON.parse(process.env.DENSE_BENCH_SETTINGS ?? '{}') as EphemeralSettings;

function send(message: WorkerMessage): void {
  process.send?.(message);
}

async function runOne(
  prepared: PreparedReplay,
  source: string,
  policy: ReplayPolicyId,
  limit: number | null,
): Promise<BenchRun> {
  const start = performance.now();
  const run = await replaySession(prepared, {
    policy: getReplayPolicy(policy),
    contextLimit: limit ?? BENCH_LIMITS[0],
    tokenCounter,
    settings: extraSettings,
  });
  return {
    source,
    policy,
    limit,
    report: run.report,
    series: run.series,
    overhead: run.overhead.map((s) => [s.historyTokens, s.ms, s.optimizeMs ?? s.ms] as const),
    liveLosses: run.losses
      .filter((loss) => loss.verdict === 'live')
      .map((loss) => ({
        category: loss.exposure.category,
        filePath: loss.exposure.filePath,
        tokens: loss.tokens,
        cause: loss.cause,
      })),
    staleReadsLeft: run.unreclaimedStale
      .filter((left) => left.exposure.category === 'reads')
      .map((left) => ({ filePath: left.exposure.filePath, tokens: left.tokens, fate: left.fate })),
    wallMs: performance.now() - start,
  };
}

async function runJob(job: BenchJob): Promise<BenchRun[]> {
  const runs: BenchRun[] = [];
  for (const session of await importTranscriptSessions(job.file)) {
    const prepared = await prepareReplay(session, { tokenCounter });
    for (const policy of REPLAY_POLICY_IDS) {
      if (onlyPolicies !== undefined && !onlyPolicies.includes(policy)) continue;
      const limits = policy === 'none' ? [null] : BENCH_LIMITS;
      for (const limit of limits) runs.push(await runOne(prepared, job.source, policy, limit));
    }
  }
  return runs;
}

process.on('message', (message: MainMessage) => {
  if (message.kind === 'stop') {
    process.exit(0);
  }
  runJob(message).then(
    (runs) => send({ kind: 'result', file: message.file, runs }),
    (error: unknown) =>
      send({
        kind: 'failed',
        file: message.file,
        error: error instanceof Error ? (error.stack ?? error.message) : String(error),
      }),
  );
});

send({ kind: 'ready' });
