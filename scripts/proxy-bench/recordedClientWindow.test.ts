import { describe, expect, it } from 'vitest';
import type { IContent, ImportedSession } from '@dense/core';
import { recordedClientWindow, wireModel } from './recordedClientWindow.js';
import { replayThroughProxy } from './replayThroughProxy.js';
import { CONTEXT_1M_BETA, clientHeaders } from './clientHeaders.js';
import type { ClientApi } from './clientRequests.js';
import { readSession, T0 } from './test-utils/readSession.js';

const human = (text: string): IContent => ({ speaker: 'human', blocks: [{ type: 'text', text }] });

/**
 * Six reads of 40,000 characters: the sixth read's request (tokens counted as characters) reports
 * past 167,000, so a 200k client compacts before the closing call.
 */
const longSession = (extra: Partial<ImportedSession> = {}): ImportedSession => ({
  ...readSession({ rounds: 6, chars: 40_000 }),
  ...extra,
});

const replay = (session: ImportedSession, api: ClientApi = 'anthropic') =>
  replayThroughProxy({
    session,
    api,
    prefix: { systemTokens: 1_000, toolTokens: 1_000 },
    count: (text) => text.length,
    sessionId: 'recorded-window',
  });

describe('bench:proxy: the client window a transcript records', () => {
  it('#32.4 a Claude Code model id with [1m] gets the 1M window and its threshold, and is sent bare with the 1M beta', () => {
    const session = longSession({ model: 'claude-sonnet-4-5-20250929[1m]' });
    const client = recordedClientWindow(session, 'anthropic', session.model ?? '');
    expect(client).toEqual({ window: 1_000_000, threshold: 967_000, source: 'claude-1m-model' });
    expect(wireModel('claude-sonnet-4-5-20250929[1m]')).toBe('claude-sonnet-4-5-20250929');
    const input = {
      session,
      api: 'anthropic' as const,
      prefix: { systemTokens: 1, toolTokens: 1 },
    };
    expect(clientHeaders({ ...input, sessionId: 's' })['anthropic-beta']).toBe(CONTEXT_1M_BETA);
  });

  it('#32.4 a /model output naming a [1m] model counts; ANSI bold codes do not', () => {
    const chosen = longSession();
    const withModel = {
      ...chosen,
      contents: [
        human(
          '<local-command-stdout>Set model to sonnet[1m] (invented output)</local-command-stdout>',
        ),
        ...chosen.contents,
      ],
    };
    expect(recordedClientWindow(withModel, 'anthropic', 'claude-sonnet-4-5').source).toBe(
      'claude-1m-model',
    );
    const bold = {
      ...chosen,
      contents: [human('\u001b[1mBuild passed\u001b[22m'), ...chosen.contents],
    };
    expect(recordedClientWindow(bold, 'anthropic', 'claude-sonnet-4-5')).toEqual({
      window: 200_000,
      threshold: 167_000,
      source: 'model-default',
    });
  });

  it('#32.4 a reported context past 200k means the 1M window', () => {
    const session = longSession();
    const reply: IContent = {
      speaker: 'ai',
      blocks: [{ type: 'text', text: 'still going' }],
      metadata: {
        timestamp: T0,
        usage: { promptTokens: 230_000, completionTokens: 500, totalTokens: 230_500 },
      },
    };
    const recorded = { ...session, contents: [...session.contents, reply] };
    expect(recordedClientWindow(recorded, 'anthropic', 'claude-sonnet-4-5').source).toBe(
      'recorded-usage',
    );
  });

  it('#32.4 a 1M session is not given a compaction that never happened; at 200k it is', async () => {
    const long = await replay(longSession({ model: 'claude-sonnet-4-5[1m]' }));
    expect(long.client.window).toBe(1_000_000);
    expect(long.compactions.passThrough.client).toBe(0);
    expect(long.model).toBe('claude-sonnet-4-5');
    const short = await replay(longSession({ model: 'claude-sonnet-4-5' }));
    expect(short.compactions.passThrough.synthetic).toBeGreaterThanOrEqual(1);
  }, 15_000);

  it("#32.4 Codex's threshold comes from its recorded model_context_window: 258,400 → window 272,000, threshold 244,800", async () => {
    const codex = { model: 'gpt-5.2-codex', recordedContextWindow: 258_400 };
    expect(
      recordedClientWindow({ contents: [], ...codex }, 'openai-responses', codex.model),
    ).toEqual({ window: 272_000, threshold: 244_800, source: 'codex-recorded-window' });
    // Without it, the model table's window (400k for gpt-5*): 360,000.
    expect(
      recordedClientWindow({ contents: [] }, 'openai-responses', 'gpt-5.2-codex').threshold,
    ).toBe(360_000);
    // Eight reads of 40,000: the eighth read's request reports past 244,800, never past 360,000.
    const session = { ...readSession({ rounds: 8, chars: 40_000 }), ...codex };
    const replayed = await replay(session, 'openai-responses');
    expect(replayed.client.source).toBe('codex-recorded-window');
    expect(replayed.compactions.passThrough.synthetic).toBeGreaterThanOrEqual(1);
  }, 15_000);
});
