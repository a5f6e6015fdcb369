import { fc, test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import { ConversationStore } from '../decide/conversationStore.js';
import { densifyRequest } from '../densify/densifyRequest.js';
import { codexLeadingItems, codexRound } from '../test-utils/codexSession.js';

type Json = Record<string, unknown>;

const LEADING = codexLeadingItems().length;

/** Rounds of one `exec` call (or two in parallel) and their outputs, with or without reasoning. */
const session = fc.record({
  rounds: fc.array(
    fc.record({
      chars: fc.integer({ min: 10, max: 6_000 }),
      parallel: fc.boolean(),
      reasoning: fc.boolean(),
    }),
    { minLength: 1, maxLength: 30 },
  ),
  budget: fc.integer({ min: 2_000, max: 30_000 }),
});

function roundItems(
  index: number,
  round: { chars: number; parallel: boolean; reasoning: boolean },
) {
  const [first, ...rest] = codexRound(index * 2, round.chars, { reasoning: round.reasoning });
  if (!round.parallel) return [first as Json, ...rest];
  const [call, output] = codexRound(index * 2 + 1, round.chars);
  // Two calls in a row, then both outputs.
  return [first as Json, ...rest.slice(0, -1), call as Json, rest.at(-1) as Json, output as Json];
}

describe('working budget on the Responses wire', () => {
  test.prop([session])(
    '#24.2 every item is sent unchanged or named by a recall id, the newest call and output are intact, and the request fits the budget unless only the newest round is left',
    ({ rounds, budget }) => {
      const roundsItems = rounds.map((round, index) => roundItems(index, round));
      const input = [...codexLeadingItems(), ...roundsItems.flat()];
      const body = JSON.stringify({ model: 'gpt-6.1-sol', stream: true, input });
      const kept = new Map<string, string>();
      const result = densifyRequest({
        api: 'openai-responses',
        body: Buffer.from(body),
        sessionId: 's',
        store: new ConversationStore(),
        now: 1,
        pressureTokens: 1_000_000,
        workingBudget: { tokens: budget, longContext: false },
      });
      for (const entry of result.recalls) kept.set(entry.id, entry.text);
      const original = input.map((item) => JSON.stringify(item));
      const sent = (JSON.parse(result.body.toString()) as { input: Json[] }).input.map((item) =>
        JSON.stringify(item),
      );
      const newestRound = roundsItems.at(-1)?.length ?? 0;
      expect(sent.slice(-newestRound)).toEqual(original.slice(-newestRound));
      expect(sent.slice(0, LEADING)).toEqual(original.slice(0, LEADING));
      if (result.compaction === undefined) {
        expect(sent).toEqual(original);
        // Left whole only when it fits (within the estimate's rounding) or has one round only.
        expect(body.length / 4 <= budget + 1 || rounds.length === 1).toBe(true);
        return;
      }
      const cut = result.compaction.cut;
      expect(sent.slice(LEADING + 1)).toEqual(original.slice(LEADING + cut));
      // The kept part starts with a model item, never with an output whose call was removed.
      expect(JSON.parse(sent[LEADING + 1] ?? '{}')).not.toHaveProperty(
        'type',
        'custom_tool_call_output',
      );
      const summary = JSON.parse(sent[LEADING] ?? '{}') as { content: { text: string }[] };
      const whole = /dense recall (r[0-9a-f]{10})/.exec(summary.content[0]?.text ?? '')?.[1];
      const removed = kept.get(whole ?? '') ?? '';
      for (const item of original.slice(LEADING, LEADING + cut)) expect(removed).toContain(item);
      const onlyNewestLeft = sent.length - LEADING - 1 === newestRound;
      if (!onlyNewestLeft) expect(result.body.length / 4).toBeLessThanOrEqual(budget);
    },
  );
});
