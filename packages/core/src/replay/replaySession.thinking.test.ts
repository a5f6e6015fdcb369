/** A replayed call is counted as the recorded model bills it: older Claude models drop earlier turns' thinking. */
import { describe, expect, it } from 'vitest';
import { human, readFile } from '../test-utils/historyBuilders.js';
import { contentTokenText, type TokenCounter } from '../services/history/TokenCounter.js';
import type { IContent } from '../services/history/IContent.js';
import { importedSession } from '../test-utils/importedSession.js';
import { prepareReplay } from './prepareReplay.js';
import { getReplayPolicy, type ReplayPolicyId } from './replayPolicies.js';
import { replaySession } from './replaySession.js';

/** One token per character, so every figure is a sum of lengths. */
const CHARS: TokenCounter = { countText: (text) => text.length };
const tokens = (entries: readonly IContent[]) =>
  entries.reduce((sum, entry) => sum + contentTokenText(entry).length, 0);

const THOUGHT = 'I should read a.ts before answering.';
const reply = (model: string, text: string, withThought: boolean): IContent => ({
  speaker: 'ai',
  blocks: [
    ...(withThought ? [{ type: 'thinking' as const, thought: THOUGHT }] : []),
    { type: 'text', text },
  ],
  metadata: { model },
});

/** Turn 1 thinks, calls a tool, answers; turn 2 asks again. */
function session(model: string): IContent[] {
  const [call, result] = readFile('c1', 'a.ts', 'export const a = 1;\n');
  const thinkingCall: IContent = {
    ...call,
    blocks: [{ type: 'thinking', thought: THOUGHT }, ...call.blocks],
    metadata: { model },
  };
  return [
    human('What is a?'),
    thinkingCall,
    result,
    reply(model, 'a is 1.', true),
    human('And b?'),
    reply(model, 'There is no b.', false),
  ];
}

async function series(model: string, policy: ReplayPolicyId): Promise<readonly number[]> {
  const contents = session(model);
  const prepared = await prepareReplay(importedSession(contents, { format: 'claude-code' }), {
    tokenCounter: CHARS,
  });
  const run = await replaySession(prepared, {
    policy: getReplayPolicy(policy),
    contextLimit: 128_000,
    tokenCounter: CHARS,
  });
  return run.series;
}

describe('#25.8 thinking of earlier turns in a replayed call’s tokens', () => {
  it.each(['none', 'recorded'] as const)(
    '#25.8 Sonnet 4 (%s): the tool loop counts its own thinking, the next turn does not',
    async (policy) => {
      const contents = session('claude-sonnet-4-20250514');
      const full = await series('claude-sonnet-4-20250514', policy);
      expect(full).toEqual([
        tokens(contents.slice(0, 1)),
        tokens(contents.slice(0, 3)),
        tokens(contents.slice(0, 5)) - 2 * THOUGHT.length,
      ]);
    },
  );

  it('#25.8 Opus 4.5 keeps the earlier turn’s thinking in the count', async () => {
    const contents = session('claude-opus-4-5-20251101');
    expect(await series('claude-opus-4-5-20251101', 'recorded')).toEqual([
      tokens(contents.slice(0, 1)),
      tokens(contents.slice(0, 3)),
      tokens(contents.slice(0, 5)),
    ]);
  });
});
