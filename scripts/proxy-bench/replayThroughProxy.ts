/**
 * Replays one imported session twice in one process, request by request at its recorded times:
 * straight to a cache-billing mock (pass-through) and through `dense proxy` (default settings) to
 * another. Both sides send the client's requests; only the proxy side is densified. At a recorded
 * compaction the pass-through side sends the client's compaction request; the proxy side does too
 * unless the context it reported stayed under the client's auto-compaction trigger, in which case
 * it keeps the full history (see `proxySideCompacts`).
 */
import {
  startProxyServer,
  type ImportedSession,
  type ProxyRequestRecord,
  type ProxyServer,
} from '@dense/core';
import { send } from '../../packages/core/src/proxy/test-utils/loopbackProxy.js';
import { startCacheBillingMock, type CacheBillingMock } from './cacheBillingMock.js';
import {
  clientEvents,
  clientRequest,
  historyBefore,
  recordedReply,
  type ClientApi,
  type ClientEvent,
  type RequestOptions,
} from './clientRequests.js';
import type { PrefixSizes } from './clientPrefix.js';
import type { CountTokens } from './promptBlocks.js';
import { proxySideCompacts, type SideReport, sideReport } from './sideReport.js';

export interface SessionReplay {
  readonly api: ClientApi;
  readonly model: string;
  /** Model calls replayed (compaction requests not included). */
  readonly calls: number;
  readonly passThrough: SideReport;
  readonly proxy: SideReport;
  /**
   * Per model call: the round trip through the proxy minus the direct one, ms (wall clock), each
   * without the mock's billing time.
   */
  readonly addedLatencyMs: readonly number[];
  /** The proxy's own record of each request it forwarded. */
  readonly records: readonly ProxyRequestRecord[];
}

export interface ReplayInput {
  readonly session: ImportedSession;
  readonly api: ClientApi;
  readonly prefix: PrefixSizes;
  readonly count: CountTokens;
  readonly sessionId: string;
}

interface Side {
  readonly mock: CacheBillingMock;
  readonly url: string;
  readonly compacted: Set<number>;
  readonly compactionRequests: number[];
}

const PATHS: Readonly<Record<ClientApi, string>> = {
  anthropic: '/v1/messages',
  'openai-responses': '/v1/responses',
};

async function timedSend(side: Side, api: ClientApi, body: string, sessionId: string) {
  const started = performance.now();
  const billed = side.mock.bills.length;
  const reply = await send(side.url, {
    path: PATHS[api],
    body,
    headers: { 'x-claude-code-session-id': sessionId, 'anthropic-version': '2023-06-01' },
  });
  if (reply.status !== 200 || reply.error !== undefined) {
    throw new Error(`replay request failed: HTTP ${reply.status} ${reply.error ?? ''}`);
  }
  const billMs = side.mock.bills.slice(billed).reduce((sum, bill) => sum + bill.billMs, 0);
  return performance.now() - started - billMs;
}

interface Run {
  readonly input: ReplayInput;
  readonly options: RequestOptions;
  readonly proxy: ProxyServer;
  readonly through: Side;
  readonly records: ProxyRequestRecord[];
}

/** Sends what `event` makes each of `sides` send; the round trips, ms, in `sides` order. */
async function sendEvent(run: Run, event: ClientEvent, sides: readonly Side[]): Promise<number[]> {
  const contents = run.input.session.contents;
  const entry = contents[event.index];
  if (entry === undefined) return [];
  const compaction = event.kind === 'compaction';
  const times: number[] = [];
  for (const side of sides) {
    const history = historyBefore(contents, event.index, side.compacted);
    const body = JSON.stringify(clientRequest(history, { ...run.options, compaction }));
    side.mock.answerNext(recordedReply(entry, run.input.api));
    if (compaction) side.compactionRequests.push(side.mock.bills.length);
    times.push(await timedSend(side, run.input.api, body, run.input.sessionId));
    if (compaction) side.compacted.add(event.index);
    if (side === run.through) {
      run.records.push(await lastRecord(run.proxy.stats, run.records.length + 1));
    }
  }
  return times;
}

const newSide = (mock: CacheBillingMock, url: string): Side => ({
  mock,
  url,
  compacted: new Set(),
  compactionRequests: [],
});

export async function replayThroughProxy(input: ReplayInput): Promise<SessionReplay> {
  const { session, api } = input;
  const clock = { now: 0 };
  const count = input.count;
  const passMock = await startCacheBillingMock({ clock: () => clock.now, count });
  const proxyMock = await startCacheBillingMock({ clock: () => clock.now, count });
  const proxy = await startProxyServer({
    anthropicUpstream: proxyMock.url,
    openaiUpstream: `${proxyMock.url}/v1`,
    now: () => clock.now,
    log: () => undefined,
  });
  const pass = newSide(passMock, passMock.url);
  const through = newSide(proxyMock, proxy.url);
  const model = session.model ?? (api === 'anthropic' ? 'claude-sonnet-4-6' : 'gpt-5');
  const run: Run = {
    input,
    options: { api, model, prefix: input.prefix },
    proxy,
    through,
    records: [],
  };
  const addedLatencyMs: number[] = [];
  const lastPrompt = (side: Side) => side.mock.bills.at(-1)?.promptTokens ?? 0;
  try {
    let recordedContext: number | undefined;
    for (const event of clientEvents(session.contents)) {
      clock.now = event.at;
      if (event.kind === 'call') {
        const [direct = 0, proxied = 0] = await sendEvent(run, event, [pass, through]);
        addedLatencyMs.push(proxied - direct);
        const usage = session.contents[event.index]?.metadata?.usage;
        recordedContext =
          usage === undefined ? undefined : usage.promptTokens + usage.completionTokens;
        continue;
      }
      const compacts = proxySideCompacts({
        recordedContext,
        passThroughPrompt: lastPrompt(pass),
        proxyPrompt: lastPrompt(through),
      });
      await sendEvent(run, event, compacts ? [pass, through] : [pass]);
    }
    return {
      api,
      model,
      calls: addedLatencyMs.length,
      passThrough: sideReport(passMock.bills, pass.compactionRequests, api),
      proxy: sideReport(proxyMock.bills, through.compactionRequests, api),
      addedLatencyMs,
      records: run.records,
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
