/**
 * Whatever the tool outputs (none, tiny, many in parallel, far larger than the window), every
 * request a session sends fits the window, no send is refused, and every output the model sees
 * shortened is kept whole in its entry for recall.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ScriptedProvider, type ScriptedReplySpec } from '../test-utils/ScriptedProvider.js';
import { scriptedToolSession } from '../test-utils/scriptedToolSession.js';
import { countTokensFromScratch } from '../services/history/HistoryService.js';
import { charEstimateTokenCounter } from '../services/history/TokenCounter.js';
import type { IContent } from '../services/history/IContent.js';
import { keptOriginalsOf } from '../services/recall/keptOriginals.js';

interface OutputSpec {
  readonly chars: number;
  readonly lineLength: number;
}

/** A deterministic output of about `chars` characters in lines of `lineLength`. */
function outputOf(parameters: unknown): string {
  const { chars, lineLength, seed } = parameters as OutputSpec & { readonly seed: number };
  const lines: string[] = [];
  for (let used = 0, n = 0; used < chars; n++) {
    const line = `${seed}:${n} `.padEnd(lineLength, 'abcdefghij').slice(0, lineLength);
    lines.push(line);
    used += line.length + 1;
  }
  return lines.join('\n');
}

const turnArb = fc.record({
  message: fc.nat({ max: 600 }),
  calls: fc.array(
    fc.record({ chars: fc.nat({ max: 150_000 }), lineLength: fc.integer({ min: 1, max: 300 }) }),
    { maxLength: 3 },
  ),
});

const sessionArb = fc.record({
  window: fc.constantFrom(4_000, 10_000, 32_000),
  strategy: fc.constantFrom('high-density' as const, 'top-down-truncation' as const),
  cap: fc.constantFrom(0.05, 0.25, 0.9),
  turns: fc.array(turnArb, { minLength: 1, maxLength: 6 }),
});

type Turn = typeof turnArb extends fc.Arbitrary<infer T> ? T : never;

function script(turns: readonly Turn[]): ScriptedReplySpec[] {
  let seed = 0;
  return turns.flatMap((turn): ScriptedReplySpec[] => {
    const calls = turn.calls.map((spec) => ({
      name: 'run_shell_command',
      parameters: { ...spec, seed: seed++ },
    }));
    return calls.length === 0 ? [{ text: 'ok' }] : [{ toolCalls: calls }, { text: 'done' }];
  });
}

describe('a session never locks (property)', () => {
  it('#22.8 #22.9 for any tool outputs, every request fits the window and every shortened output is kept whole', async () => {
    await fc.assert(
      fc.asyncProperty(sessionArb, async ({ window, strategy, cap, turns }) => {
        const provider = new ScriptedProvider(script(turns));
        const session = scriptedToolSession({
          provider,
          settings: {
            'context-limit': window,
            'compression.strategy': strategy,
            'compression.toolOutputCap': cap,
          },
          output: outputOf,
          tokenCounter: charEstimateTokenCounter,
        });
        const recorded: IContent[] = [];
        session.chat.events.on('contentRecorded', ({ content }) => recorded.push(content));
        for (const [i, turn] of turns.entries()) {
          await session.sendMessage(`message ${i} ${'m'.repeat(turn.message)}`);
        }
        const room = window - Math.floor(window * 0.1);
        for (const request of provider.requests) {
          const tokens = await countTokensFromScratch(request.contents, charEstimateTokenCounter);
          expect(tokens).toBeLessThanOrEqual(room);
        }
        const calls = new Map(
          recorded.flatMap((entry) =>
            entry.blocks.flatMap((b) => (b.type === 'tool_call' ? [[b.id, b.parameters]] : [])),
          ),
        );
        for (const entry of recorded) {
          for (const block of entry.blocks) {
            if (block.type !== 'tool_response') continue;
            const whole = outputOf(calls.get(block.callId));
            if (block.result === whole) continue;
            const kept = keptOriginalsOf(entry).find((k) => k.callId === block.callId);
            expect(kept?.text).toBe(whole);
          }
        }
      }),
      { numRuns: 30 },
    );
  });
});
