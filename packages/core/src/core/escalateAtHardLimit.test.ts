import { describe, expect, it } from 'vitest';
import {
  escalateAtHardLimit,
  planEmergencyRoom,
  type EmergencyRoomInput,
} from './escalateAtHardLimit.js';
import { ai, human, toolCall, toolResult } from '../test-utils/historyBuilders.js';
import type { IContent } from '../services/history/IContent.js';
import { HistoryService, countTokensFromScratch } from '../services/history/HistoryService.js';
import { charEstimateTokenCounter } from '../services/history/TokenCounter.js';
import { keptOriginalsOf } from '../services/recall/keptOriginals.js';
import { asDensityReply } from './compression/density/entry/densityReply.js';
import { sameOutputText } from './compression/density/entry/unchangedRead.js';

const countEntries = (entries: readonly IContent[]) =>
  countTokensFromScratch(entries, charEstimateTokenCounter);

/** `n` tokens of text at chars/4. */
const text = (n: number) => 'x'.repeat(n * 4);
const output = (n: number) => Array.from({ length: n }, () => 'abc').join('\n'); // ~n tokens

function input(entries: readonly IContent[], overrides: Partial<EmergencyRoomInput> = {}) {
  return { entries, room: 1000, capTokens: 250, keepNewest: 0, countEntries, ...overrides };
}

describe('planEmergencyRoom', () => {
  it('leaves a history that fits unchanged', async () => {
    const plan = await planEmergencyRoom(input([human(text(100)), ai('ok')]));
    expect(plan.kind).toBe('unchanged');
  });

  it('#22.9 drops the fewest oldest entries that make room, whatever the tail fraction', async () => {
    const entries = [
      human(text(400)),
      ai('a'),
      human(text(400)),
      ai('b'),
      human(text(400)),
      ai('c'),
    ];
    const plan = await planEmergencyRoom(input(entries));
    expect(plan).toMatchObject({
      kind: 'rewrite',
      fits: true,
      entriesDropped: 2,
      outputsCapped: 0,
    });
    if (plan.kind === 'rewrite') expect(plan.entries).toEqual(entries.slice(2));
  });

  it('#22.9 never drops a call without its responses, nor the newest entries it must keep', async () => {
    const entries = [
      human(text(50)),
      toolCall({ id: 'c1', name: 'glob' }),
      toolResult({ id: 'c1', name: 'glob', result: text(200) }),
      toolCall({ id: 'c2', name: 'glob' }),
      toolResult({ id: 'c2', name: 'glob', result: text(200) }),
    ];
    const plan = await planEmergencyRoom(input(entries, { room: 240, keepNewest: 1 }));
    if (plan.kind !== 'rewrite') throw new Error('expected a rewrite');
    expect(plan.entries[0]).toBe(entries[3]);
    expect(plan.fits).toBe(true);
  });

  it('#22.8 cuts an output over the cap before dropping anything, keeping the original', async () => {
    const entries = [
      human('count'),
      toolCall({ id: 'c1', name: 'run_shell_command' }),
      toolResult({ id: 'c1', name: 'run_shell_command', result: output(3000) }),
    ];
    const plan = await planEmergencyRoom(input(entries, { keepNewest: 1 }));
    if (plan.kind !== 'rewrite') throw new Error('expected a rewrite');
    expect(plan).toMatchObject({ fits: true, entriesDropped: 0, outputsCapped: 1 });
    expect(keptOriginalsOf(plan.entries[2]!)).toEqual([
      { callId: 'c1', toolName: 'run_shell_command', text: output(3000) },
    ]);
  });

  it('#22.8 mid-turn, parallel outputs each within the cap are cut smaller until the turn fits', async () => {
    const calls = ['c1', 'c2', 'c3', 'c4', 'c5'].map((id) => ({ id, name: 'grep' }));
    const entries = [
      human('find it'),
      toolCall(calls),
      toolResult(calls.map((c) => ({ ...c, result: output(240) }))),
    ];
    const plan = await planEmergencyRoom(input(entries, { room: 600, keepNewest: 1 }));
    if (plan.kind !== 'rewrite') throw new Error('expected a rewrite');
    expect(plan).toMatchObject({ fits: true, outputsCapped: 5 });
    expect(plan.tokens).toBeLessThanOrEqual(600);
    // Cut again from the originals: each names its own whole output.
    expect(keptOriginalsOf(plan.entries.at(-1)!)).toHaveLength(5);
  });

  it('says when nothing it may do makes room (the newest entry alone is over)', async () => {
    const plan = await planEmergencyRoom(input([human(text(2000))], { keepNewest: 1 }));
    expect(plan.kind).toBe('unchanged');
    expect(plan.tokens).toBe(2000);
  });
});

describe('planEmergencyRoom and density replies', () => {
  it('#22.6 #22.9 a reply whose named output the escalation drops is put back as the tool output', async () => {
    const output = 'same lines\n'.repeat(60);
    const first = toolResult({ id: 'c1', name: 'glob', result: output });
    const reply = toolResult({ id: 'c2', name: 'glob', result: output });
    const replyBlock = reply.blocks[0];
    if (replyBlock?.type !== 'tool_response') throw new Error('expected a tool response');
    const replied: IContent = {
      ...reply,
      blocks: [
        asDensityReply(replyBlock, {
          field: 'result',
          text: sameOutputText('c1'),
          original: output,
        }),
      ],
    };
    const entries = [
      human(text(600)),
      toolCall({ id: 'c1', name: 'glob' }),
      first,
      human('again'),
      toolCall({ id: 'c2', name: 'glob' }),
      replied,
    ];
    const plan = await planEmergencyRoom(input(entries, { room: 700, capTokens: 10_000 }));
    if (plan.kind !== 'rewrite') throw new Error('expected a rewrite');
    expect(plan.entriesDropped).toBeGreaterThan(0);
    const last = plan.entries.at(-1)?.blocks[0];
    expect(last?.type === 'tool_response' ? last.result : undefined).toBe(output);
  });
});

describe("escalateAtHardLimit: the user's dropped words (#33.1)", () => {
  async function historyOf(entries: readonly IContent[]) {
    const history = new HistoryService({ tokenCounter: charEstimateTokenCounter });
    history.addAll(entries);
    await history.waitForTokenUpdates();
    return history;
  }
  const entries = [human('Keep the API stable.'), ai(text(600)), human('next'), ai(text(300))];
  const pinned = (note: string) => (_before: readonly IContent[], after: readonly IContent[]) => [
    human(note),
    ...after,
  ];

  it('#33.1 a drop gives back what keep returns when that fits the room', async () => {
    const history = await historyOf(entries);
    const event = await escalateAtHardLimit({
      history,
      room: 500,
      capTokens: 250,
      pendingTokens: 10,
      promptId: 'p',
      keep: pinned('Keep the API stable.'),
    });
    expect(event?.entriesDropped).toBeGreaterThan(0);
    expect(JSON.stringify(history.getCurated()[0])).toContain('Keep the API stable.');
  });

  it('#33.1 when what keep returns does not fit beside the plan, older entries make room for it', async () => {
    const note = `Pinned: ${text(60)}`;
    const history = await historyOf([
      human('Keep the API stable.'),
      ai(text(300)),
      human('next'),
      ai(text(300)),
      human('more'),
      ai(text(150)),
    ]);
    const event = await escalateAtHardLimit({
      history,
      room: 500,
      capTokens: 10_000,
      pendingTokens: 10,
      promptId: 'p',
      keep: pinned(note),
    });
    const curated = history.getCurated();
    expect(event?.fits).toBe(true);
    expect(JSON.stringify(curated[0])).toContain(note);
    expect(await history.estimateTokensForContents(curated)).toBeLessThanOrEqual(500);
    expect(JSON.stringify(curated)).toContain('more');
  });

  it('#33.1 and the plan alone when what keep returns would not fit (the send is never refused for it)', async () => {
    const history = await historyOf(entries);
    await escalateAtHardLimit({
      history,
      room: 500,
      capTokens: 250,
      pendingTokens: 10,
      promptId: 'p',
      keep: pinned(text(400)),
    });
    expect(await history.estimateTokensForContents(history.getCurated())).toBeLessThanOrEqual(500);
  });
});
