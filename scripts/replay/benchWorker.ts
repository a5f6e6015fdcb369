/**
 * A worker process of the replay bench: imports each file it is sent and replays every session in
 * it under every policy and context limit, then sends the runs back. Holds one memoizing token
 * counter for its lifetime, so the entries shared by all policies are tokenized once.
 */
import path from 'node:path';
import {
  CLAUDE_CODE_USAGE_MODEL,
  compareRecordedUsage,
  countRecordedCompactions,
  crossCheckOracle,
  isRecordedSummary,
  getReplayPolicy,
  importTranscriptSessions,
  memoTokenCounter,
  prepareReplay,
  REPLAY_POLICY_IDS,
  replaySession,
  type IContent,
  type PreparedReplay,
  type ReplayRun,
  type ReplayPolicyId,
  type EphemeralSettings,
} from '@dense/core';
import {
  BENCH_LIMITS,
  type BenchJob,
  type BenchRun,
  type MainMessage,
  type SessionCrossCheck,
  type WorkerMessage,
} from './benchTypes.js';
import { benchSessions } from '../benchSessions.js';

const tokenCounter = memoTokenCounter();

/** `--policies a,b` and `--set k=v` of bench-replay reach the workers through the environment. */
const onlyPolicies = process.env.DENSE_BENCH_POLICIES?.split(',').filter((p) => p !== '');
const extraSettings = JSON.parse(process.env.DENSE_BENCH_SETTINGS ?? '{}') as EphemeralSettings;
/** `--sent` of bench-replay: where to write what each run sent, one folder per source. */
const sentDir = process.env.DENSE_BENCH_SENT;
/** `--limits` of bench-replay: the context limits to replay at instead of BENCH_LIMITS. */
const limitsToRun: readonly number[] =
  process.env.DENSE_BENCH_LIMITS?.split(',').map(Number) ?? BENCH_LIMITS;

function send(message: WorkerMessage): void {
  process.send?.(message);
}

async function runOne(
  prepared: PreparedReplay,
  source: string,
  policy: ReplayPolicyId,
  limit: number | null,
  recordedCompactions: number,
  callsBefore: number,
): Promise<BenchRun> {
  const start = performance.now();
  const run = await replaySession(prepared, {
    policy: getReplayPolicy(policy),
    contextLimit: limit ?? BENCH_LIMITS[0],
    tokenCounter,
    settings: extraSettings,
    ...(sentDir === undefined ? {} : { sent: { dir: path.join(sentDir, source) } }),
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
        recallable: loss.recallable,
      })),
    staleReadsLeft: run.unreclaimedStale
      .filter((left) => left.exposure.category === 'reads')
      .map((left) => ({ filePath: left.exposure.filePath, tokens: left.tokens, fate: left.fate })),
    wallMs: performance.now() - start,
    recordedCompactions,
    ...usageOf(run, policy, recordedCompactions, callsBefore),
  };
}

/** AI entries before the first summary that ends earlier content: the calls before it. */
function callsBeforeFirstCompaction(contents: readonly IContent[]): number {
  let calls = 0;
  let seenContent = false;
  for (const entry of contents) {
    if (isRecordedSummary(entry) && seenContent) return calls;
    if (!isRecordedSummary(entry)) seenContent = true;
    if (entry.speaker === 'ai') calls++;
  }
  return calls;
}

function usageOf(
  run: ReplayRun,
  policy: ReplayPolicyId,
  recordedCompactions: number,
  callsBefore: number,
): Pick<BenchRun, 'recordedUsage'> {
  if (recordedCompactions === 0 || (policy !== 'none' && policy !== 'recorded')) return {};
  const input = {
    series: run.series,
    recordedPromptTokens: run.recordedPromptTokens,
    compactionCalls: run.compactionCalls,
    keptSignatureChars: run.keptSignatureChars,
    model: CLAUDE_CODE_USAGE_MODEL,
  };
  const all = compareRecordedUsage(input);
  if (all.kind === 'not-compared' && all.reason === 'no-recorded-usage') return {};
  return {
    recordedUsage: { all, after: compareRecordedUsage({ ...input, checkFrom: callsBefore }) },
  };
}

async function runJob(
  job: BenchJob,
): Promise<{ runs: BenchRun[]; crossChecks: SessionCrossCheck[]; compactionCalls: number }> {
  const runs: BenchRun[] = [];
  const crossChecks: SessionCrossCheck[] = [];
  const { sessions, compactionCalls } = benchSessions(await importTranscriptSessions(job.file));
  for (const [index, session] of sessions.entries()) {
    const prepared = await prepareReplay(session, { tokenCounter });
    const compactions = countRecordedCompactions(prepared.plan.contents);
    const callsBefore = callsBeforeFirstCompaction(prepared.plan.contents);
    const disagreements = crossCheckOracle(prepared.plan.contents, prepared.workspaceRoot);
    const name = `${path.basename(job.file)}${index === 0 ? '' : `#${index}`}`;
    if (disagreements.length > 0) {
      crossChecks.push({ source: job.source, session: name, disagreements });
    }
    for (const policy of REPLAY_POLICY_IDS) {
      if (onlyPolicies !== undefined && !onlyPolicies.includes(policy)) continue;
      const limits = getReplayPolicy(policy).unlimited === true ? [null] : limitsToRun;
      for (const limit of limits) {
        runs.push(await runOne(prepared, job.source, policy, limit, compactions, callsBefore));
      }
    }
  }
  return { runs, crossChecks, compactionCalls };
}

process.on('message', (message: MainMessage) => {
  if (message.kind === 'stop') {
    process.exit(0);
  }
  runJob(message).then(
    ({ runs, crossChecks, compactionCalls }) =>
      send({ kind: 'result', file: message.file, runs, crossChecks, compactionCalls }),
    (error: unknown) =>
      send({
        kind: 'failed',
        file: message.file,
        error: error instanceof Error ? (error.stack ?? error.message) : String(error),
      }),
  );
});

send({ kind: 'ready' });
