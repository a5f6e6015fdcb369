/**
 * Two ways a session at a 10k window could lock: one tool output larger than the window, and a
 * message refused at the hard limit although dropping one more old turn would make room.
 * Real session, real strategies, a scripted model and scripted tools.
 */
import { describe, expect, it } from 'vitest';
import type { EphemeralSettings } from '../settings/settingsRegistry.js';
import { ScriptedProvider } from '../test-utils/ScriptedProvider.js';
import { scriptedToolSession } from '../test-utils/scriptedToolSession.js';
import { countTokensFromScratch } from '../services/history/HistoryService.js';
import {
  charEstimateTokenCounter,
  o200kTokenCounter,
  type TokenCounter,
} from '../services/history/TokenCounter.js';
import type { GenerateRequest } from '../providers/IProvider.js';
import type { EmergencyRoomEvent } from '../core/CompressionHandler.js';
import { human, toolCall, toolResult } from '../test-utils/historyBuilders.js';

const WINDOW = 10_000;
/** The default reply reserve at this window (10%). */
const RESERVE = 1_000;

/** What `seq 100000 130000` prints. */
const SEQ = Array.from({ length: 30_001 }, (_, i) => `${100_000 + i}\n`).join('');

async function requestTokens(request: GenerateRequest, counter: TokenCounter): Promise<number> {
  return countTokensFromScratch(request.contents, counter);
}

describe('a session never locks at a 10k window', () => {
  it('#22.8 an output larger than the window is capped, recallable whole, and the session goes on', async () => {
    let recallId = '';
    const provider = new ScriptedProvider([
      {
        toolCalls: [
          { id: 'seq-1', name: 'run_shell_command', parameters: { command: 'seq 100000 130000' } },
        ],
      },
      { text: 'The numbers run from 100000 to 130000.' },
      (request) => {
        recallId = /recall id (r[0-9a-f]{10}) returns it whole/.exec(
          JSON.stringify(request.contents),
        )![1]!;
        return { toolCalls: [{ id: 'recall-1', name: 'recall', parameters: { id: recallId } }] };
      },
      { text: 'All 30001 numbers are back.' },
    ]);
    const session = scriptedToolSession({
      provider,
      settings: { 'context-limit': WINDOW },
      output: () => SEQ,
    });

    await session.sendMessage('Print the numbers from 100000 to 130000.');
    await session.sendMessage('Show me the whole list again.');

    const shown = JSON.stringify(provider.requests[1]?.contents);
    expect(shown).toContain('100000\\n100001\\n');
    expect(shown).toContain('129999\\n130000\\n');
    expect(shown).toMatch(/of 30001 lines not shown in full/);
    expect(shown).toContain(`recall id ${recallId} returns it whole`);
    for (const request of provider.requests) {
      expect(await requestTokens(request, o200kTokenCounter)).toBeLessThanOrEqual(WINDOW - RESERVE);
    }
    // The recall tool returns the whole output, byte for byte (it is capped again in context).
    const recalled = session.history.getRawHistory().at(-2)!;
    expect(recalled.metadata?.keptOriginals).toEqual([
      { callId: 'recall-1', toolName: 'recall', text: SEQ },
    ]);
    expect(provider.remaining).toBe(0);
  });

  /**
   * Three small messages, two big ones (3.5k tokens each at chars/4), then a 2.3k-token one: with
   * the threshold's compression alone the preserved tail (the two big turns, 7k) leaves no room
   * for the last. Returns the provider and the emergencies the session reported.
   */
  async function bigMessagesSession(settings: EphemeralSettings) {
    const big = (tag: string) => `${tag} ${'x'.repeat(13_990)}`;
    const provider = new ScriptedProvider(
      Array.from({ length: 6 }, (_, i) => ({ text: `ok ${i}` })),
    );
    const session = scriptedToolSession({
      provider,
      settings: { 'context-limit': WINDOW, ...settings },
      output: () => '',
      tokenCounter: charEstimateTokenCounter,
    });
    const emergencies: EmergencyRoomEvent[] = [];
    session.compression.events.on('emergencyRoom', (event) => emergencies.push(event));
    for (const i of [1, 2, 3]) await session.sendMessage(`small ${i} ${'s'.repeat(390)}`);
    await session.sendMessage(big('first-big'));
    await session.sendMessage(big('second-big'));
    await session.sendMessage(`last ${'m'.repeat(9_195)}`);
    return { provider, emergencies };
  }

  it('#35.1 with the default working budget the same session never reaches the hard limit: both big messages stay as head and tail', async () => {
    const { provider, emergencies } = await bigMessagesSession({});
    const request = provider.requests.at(-1);
    const sent = JSON.stringify(request?.contents ?? []);
    expect(emergencies).toHaveLength(0);
    for (const tag of ['small 1', 'small 3', 'first-big', 'second-big', 'last ']) {
      expect(sent).toContain(tag);
    }
    expect(await requestTokens(request!, charEstimateTokenCounter)).toBeLessThanOrEqual(
      WINDOW - RESERVE,
    );
  });

  it('#22.9 at the hard limit the oldest turn goes instead of refusing the message', async () => {
    // The threshold's compression alone, so the hard limit is reached.
    const { provider, emergencies } = await bigMessagesSession({
      'compression.density.workingBudget': 0,
    });
    const contents = provider.requests.at(-1)?.contents ?? [];
    expect(JSON.stringify(contents)).toContain('second-big');
    // The first big turn went; its message (a paste past 8,000 characters) comes back only as the
    // head and tail Dense's entry pins (#33.1), and the history goes on with a whole turn.
    const [pinned, , next] = contents;
    expect(JSON.stringify(pinned)).toContain('first-big');
    expect(JSON.stringify(pinned)).toContain('characters of this paste cut');
    expect(JSON.stringify(contents.slice(1))).not.toContain('first-big');
    expect(JSON.stringify(next)).toContain('second-big');
    expect(emergencies).toHaveLength(1);
    expect(emergencies[0]).toMatchObject({ outputsCapped: 0, fits: true });
    const tokens = await requestTokens(provider.requests.at(-1)!, charEstimateTokenCounter);
    expect(tokens).toBeLessThanOrEqual(WINDOW - RESERVE);
  });

  it('#22.8 /compress makes room for a resumed history holding an output over the window', async () => {
    const provider = new ScriptedProvider([{ text: 'Back on track.' }]);
    const session = scriptedToolSession({
      provider,
      settings: { 'context-limit': WINDOW },
      output: () => '',
    });
    const notices: string[] = [];
    session.compression.events.on('emergencyRoom', (event) => notices.push(event.message));
    const command = { command: 'seq 100000 130000' };
    session.history.addAll([
      human('Print the numbers.'),
      toolCall({ id: 'seq-1', name: 'run_shell_command', parameters: command }),
      toolResult({ id: 'seq-1', name: 'run_shell_command', result: SEQ }),
    ]);

    await session.compressNow();
    await session.history.waitForTokenUpdates();

    expect(session.history.getTotalTokens()).toBeLessThanOrEqual(WINDOW - RESERVE);
    expect(notices).toEqual([expect.stringContaining('cut 1 tool output(s)')]);
    await session.sendMessage('Go on.');
    expect(provider.remaining).toBe(0);
  });
});
