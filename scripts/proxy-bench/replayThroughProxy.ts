/**
 * Replays one imported session twice in one process, request by request at its recorded times:
 * straight to a cache-billing mock (pass-through) and through `dense proxy` (default settings) to
 * another. Both sides send the client's requests; only the proxy side is densified.
 *
 * Each side's client compacts as the real one would (`clientCompaction.ts`): before a model call
 * whose side was last told a context past the client's threshold (a synthetic compaction: the
 * summarize request billed with a summary of the recorded size class as its reply, then the
 * history from that summary and the newest call), and at a recorded compaction (pass-through
 * always; the proxy side when it was asked below the trigger or its own context passed the
 * threshold). The proxy side's compaction requests go through the proxy, which answers them
 * itself (no bill, its measured ms as the wait); that side's client then holds Dense's answer as
 * its summary, as the real client would. The client's window and threshold are the ones
 * its transcript records (`recordedClientWindow.ts`); Claude Code's requests carry the
 * `context-1m` beta when that window is past 200k.
 *
 * With a set client `window` (`--window`) the recording's compactions are dropped: every request is
 * rebuilt from the whole history before it (a recorded summary and the boundary it marks are
 * skipped, so the requests after it carry everything before it), each side compacts only past
 * that window's threshold, and Claude Code's requests carry the `context-1m` beta above 200k so
 * the proxy derives its default working budget for that window.
 *
 * Each side's request for a model call, as its upstream received it, is judged by the grounding
 * and intent oracles (SideGrounding.ts, SideIntent.ts) and, with `sent`, written out as sent
 * (SentLog.ts), compaction requests that reached the upstream included.
 */
import { codexKeptMessages } from './codexKeptMessages.js';
import { toldContext } from './toldContext.js';
import {
  startProxyServer,
  type IContent,
  type ImportedSession,
  type ProxyRequestRecord,
  type ProxyServer,
} from '@dense/core';
import { send } from '../../packages/core/src/proxy/test-utils/loopbackProxy.js';
import { startCacheBillingMock, type CacheBillingMock } from './cacheBillingMock.js';
import {
  compactsAtBoundary,
  recordedWaitMs,
  summaryChars,
  syntheticSummary,
  CLIENT_COMPACTION_WAIT_MS,
} from './clientCompaction.js';
import {
  clientEvents,
  clientRequest,
  historyBefore,
  recordedReply,
  type ClientApi,
  type RequestOptions,
} from './clientRequests.js';
import type { PrefixSizes } from './clientPrefix.js';
import type { CountTokens } from '../../packages/core/src/test-utils/promptBlocks.js';
import { AUTO_COMPACT_TOKENS, sideReport } from './sideReport.js';
import { BenchRecallArchive } from './BenchRecallArchive.js';
import type { SessionReplay } from './sessionReplay.js';
import { callPosition, SideGrounding } from './SideGrounding.js';
import { SideIntent } from './SideIntent.js';
import type { SentSink } from './SentLog.js';
import { sentEntries } from './sentEntries.js';
import { replyText } from './replyText.js';
import { wireModel, type WindowedSession } from './recordedClientWindow.js';
import { clientHeaders, replayWindow, sessionModel } from './clientHeaders.js';

/**
 * What the replay reads of a session: its entries, recorded model and, where the transcript
 * records it, the client's window (`recordedContextWindow`).
 */
export type ReplaySession = Pick<ImportedSession, 'contents' | 'model'> & WindowedSession;

export interface ReplayInput {
  readonly session: ReplaySession;
  readonly api: ClientApi;
  readonly prefix: PrefixSizes;
  readonly count: CountTokens;
  readonly sessionId: string;
  /** The client's window (tokens); undefined: the recorded one, compactions as recorded. */
  readonly window?: number;
  /** The proxy's working budget; undefined: its default. */
  readonly workingBudget?: number | 'off';
  /** Where each side's upstream requests are reported as sent (`--sent`); none when undefined. */
  readonly sent?: { readonly passThrough: SentSink; readonly proxy: SentSink };
}

interface Side {
  readonly mock: CacheBillingMock;
  readonly url: string;
  readonly compacted: Set<number>;
  /** The summary it holds at a boundary where that is not the recording's (`historyBefore`). */
  readonly summaries: Map<number, IContent>;
  readonly compactionRequests: number[];
  readonly grounding: SideGrounding;
  readonly intent: SideIntent;
  readonly sent: SentSink | undefined;
  /** Requests that reached this side's upstream. */
  upstream: number;
  /** Its history starts at a synthetic summary (its latest compaction was synthetic). */
  onSynthetic: boolean;
  /** Context the client was last told (prompt + output of its last model call). */
  reported: number;
  counts: { client: number; synthetic: number; answeredByDense: number; blockedMs: number };
}

const PATHS: Readonly<Record<ClientApi, string>> = {
  anthropic: '/v1/messages',
  'openai-responses': '/v1/responses',
};

/**
 * Sends `body` from `side`: the round trip (ms), whether it reached the side's upstream, and the
 * reply's event-stream chunks.
 */
async function timedSend(
  side: Side,
  run: Run,
  body: string,
): Promise<{ ms: number; upstream: boolean; chunks: readonly string[] }> {
  const started = performance.now();
  const billed = side.mock.bills.length;
  const reply = await send(side.url, {
    path: PATHS[run.input.api],
    body,
    headers: run.headers,
  });
  if (reply.status !== 200 || reply.error !== undefined) {
    throw new Error(`replay request failed: HTTP ${reply.status} ${reply.error ?? ''}`);
  }
  const billMs = side.mock.bills.slice(billed).reduce((sum, bill) => sum + bill.billMs, 0);
  const upstream = side.mock.bills.length > billed;
  if (upstream) side.upstream++;
  return { ms: performance.now() - started - billMs, upstream, chunks: reply.chunks };
}

interface Run {
  readonly input: ReplayInput;
  readonly options: RequestOptions;
  readonly headers: Readonly<Record<string, string>>;
  readonly proxy: ProxyServer;
  readonly through: Side;
  readonly records: ProxyRequestRecord[];
  readonly clock: { now: number };
}

/** Sends one model call from `side`; the round trip, ms. */
async function sendCall(run: Run, index: number, side: Side): Promise<number> {
  const { contents } = run.input.session;
  const history = historyBefore(contents, index, side.compacted, side.summaries);
  side.mock.answerNext(recordedReply(contents[index] as IContent, run.input.api));
  const { ms, upstream, chunks } = await timedSend(
    side,
    run,
    JSON.stringify(clientRequest(history, run.options)),
  );
  const body = side.mock.lastBody;
  side.grounding.onCall(body, index);
  const messages = sentEntries(body, run.input.api);
  const intent = side.intent.onCall(messages, index, side.onSynthetic);
  if (upstream) {
    const position = callPosition(index);
    const line = {
      request: side.upstream,
      kind: 'call',
      entry: index,
      position,
      messages,
    } as const;
    await side.sent?.write(intent === undefined ? line : { ...line, intent });
  }
  if (side === run.through)
    run.records.push(await lastRecord(run.proxy.stats, run.records.length + 1));
  const bill = side.mock.bills.at(-1);
  side.reported = bill === undefined ? 0 : bill.promptTokens + bill.outputTokens;
  // The client goes by the usage its reply told it: through the proxy that may be raised so it
  // compacts (`clientHistoryBound.ts`).
  if (side === run.through) side.reported = Math.max(side.reported, toldContext(chunks) ?? 0);
  return ms;
}

/**
 * The side's client compacts before `index`: its summarize request (answered by `summary`, or by
 * Dense itself: then the client holds Dense's answer), then its history restarts at `boundary`.
 * `waitMs`: the wait when no model call answers it.
 */
async function compact(
  run: Run,
  side: Side,
  step: { index: number; boundary: number; summary: IContent; waitMs: number; synthetic: boolean },
): Promise<void> {
  const { contents } = run.input.session;
  const history = historyBefore(contents, step.index, side.compacted, side.summaries);
  const body = JSON.stringify(clientRequest(history, { ...run.options, compaction: true }));
  side.mock.answerNext(recordedReply(step.summary, run.input.api));
  side.compactionRequests.push(side.mock.bills.length);
  const { ms, upstream, chunks } = await timedSend(side, run, body);
  if (upstream && side.sent !== undefined) {
    const messages = sentEntries(side.mock.lastBody, run.input.api);
    await side.sent.write({
      request: side.upstream,
      kind: 'compaction',
      entry: step.index,
      position: callPosition(step.index),
      messages,
    });
  }
  let answered = false;
  if (side === run.through) {
    const record = await lastRecord(run.proxy.stats, run.records.length + 1);
    run.records.push(record);
    answered = record.compaction?.kind === 'answered';
  }
  if (answered) side.compactionRequests.pop();
  side.counts.client++;
  if (step.synthetic) side.counts.synthetic++;
  if (answered) {
    // Codex keeps the user's messages beside the summary; Claude Code keeps the summary alone.
    const kept = run.input.api === 'openai-responses' ? codexKeptMessages(history) : [];
    side.summaries.set(step.boundary, heldSummary(replyText(chunks), kept));
  } else if (step.synthetic) side.summaries.set(step.boundary, step.summary);
  side.counts.answeredByDense += answered ? 1 : 0;
  side.counts.blockedMs += answered ? ms : step.waitMs;
  side.compacted.add(step.boundary);
  side.onSynthetic = step.synthetic && !answered;
  side.reported = 0;
}

/** The summary entry a client keeps from the text of its compaction's reply. */
const heldSummary = (text: string, kept: readonly string[] = []): IContent => ({
  speaker: 'human',
  blocks: [
    ...kept.map((message) => ({ type: 'text' as const, text: message })),
    { type: 'text', text },
  ],
  metadata: { isSummary: true },
});

const newSide = (
  mock: CacheBillingMock,
  url: string,
  judges: { grounding: SideGrounding; intent: SideIntent; sent: SentSink | undefined },
): Side => ({
  mock,
  url,
  ...judges,
  upstream: 0,
  onSynthetic: false,
  compacted: new Set(),
  summaries: new Map(),
  compactionRequests: [],
  reported: 0,
  counts: { client: 0, synthetic: 0, answeredByDense: 0, blockedMs: 0 },
});

async function replayEvents(
  run: Run,
  pass: Side,
  threshold: number | undefined,
): Promise<number[]> {
  const { contents } = run.input.session;
  const through = run.through;
  const summary = syntheticSummary(summaryChars(contents));
  const addedLatencyMs: number[] = [];
  let recordedContext: number | undefined;
  let lastCall: number | undefined;
  for (const event of clientEvents(contents)) {
    run.clock.now = event.at;
    if (event.kind === 'call') {
      for (const side of [pass, through]) {
        if (threshold === undefined || lastCall === undefined || side.reported < threshold)
          continue;
        const step = { index: event.index, boundary: lastCall, summary, synthetic: true };
        await compact(run, side, { ...step, waitMs: CLIENT_COMPACTION_WAIT_MS });
      }
      const direct = await sendCall(run, event.index, pass);
      addedLatencyMs.push((await sendCall(run, event.index, through)) - direct);
      const usage = contents[event.index]?.metadata?.usage;
      recordedContext =
        usage === undefined ? undefined : usage.promptTokens + usage.completionTokens;
      lastCall = event.index;
      continue;
    }
    if (run.input.window !== undefined) continue;
    const step = {
      index: event.index,
      boundary: event.index,
      summary: contents[event.index] as IContent,
      waitMs: recordedWaitMs(contents, event.index),
      synthetic: false,
    };
    const passReported = pass.reported;
    await compact(run, pass, step);
    const proxyCompacts = compactsAtBoundary({
      recordedContext,
      reported: through.reported,
      passReported,
      threshold,
      userAskedBelow: AUTO_COMPACT_TOKENS,
    });
    if (proxyCompacts) await compact(run, through, step);
  }
  return addedLatencyMs;
}

export async function replayThroughProxy(input: ReplayInput): Promise<SessionReplay> {
  const { session, api } = input;
  const clock = { now: 0 };
  const count = input.count;
  const passMock = await startCacheBillingMock({ clock: () => clock.now, count });
  const proxyMock = await startCacheBillingMock({ clock: () => clock.now, count });
  const archive = new BenchRecallArchive();
  const proxy = await startProxyServer({
    recall: archive,
    anthropicUpstream: proxyMock.url,
    openaiUpstream: `${proxyMock.url}/v1`,
    now: () => clock.now,
    log: () => undefined,
    ...(input.workingBudget === undefined ? {} : { workingBudget: input.workingBudget }),
  });
  const pass = newSide(passMock, passMock.url, {
    grounding: new SideGrounding(session.contents, api),
    intent: new SideIntent(session.contents),
    sent: input.sent?.passThrough,
  });
  const through = newSide(proxyMock, proxy.url, {
    grounding: new SideGrounding(session.contents, api, archive),
    intent: new SideIntent(session.contents),
    sent: input.sent?.proxy,
  });
  const model = wireModel(sessionModel(input));
  const client = replayWindow(input);
  const run: Run = {
    input,
    options: { api, model, prefix: input.prefix },
    headers: clientHeaders(input, client),
    proxy,
    through,
    records: [],
    clock,
  };
  try {
    const addedLatencyMs = await replayEvents(run, pass, client.threshold);
    return {
      api,
      model,
      client,
      calls: addedLatencyMs.length,
      passThrough: sideReport(passMock.bills, pass.compactionRequests, api),
      proxy: sideReport(proxyMock.bills, through.compactionRequests, api),
      compactions: { passThrough: { ...pass.counts }, proxy: { ...through.counts } },
      addedLatencyMs,
      records: run.records,
      bills: { passThrough: passMock.bills, proxy: proxyMock.bills },
      grounding: { passThrough: pass.grounding.report(), proxy: through.grounding.report() },
      intent: { passThrough: pass.intent.report(), proxy: through.intent.report() },
    };
  } finally {
    await proxy.close();
    await Promise.all([passMock.close(), proxyMock.close()]);
  }
}

/** The proxy's record of its `n`th request (it is stored just after the reply ends). */
async function lastRecord(
  stats: { toJSON(): { totals: { requests: number }; recent: readonly ProxyRequestRecord[] } },
  n: number,
): Promise<ProxyRequestRecord> {
  for (let tries = 0; tries < 1_000; tries++) {
    const json = stats.toJSON();
    const record = json.recent.at(-1);
    if (json.totals.requests >= n && record !== undefined) return record;
    await new Promise((resolve) => setImmediate(resolve));
  }
  throw new Error('the proxy did not record the request');
}
