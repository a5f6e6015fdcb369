/**
 * Replies at entry name their referent unambiguously, never keep a line that looks like a marker,
 * and carry the tool's own output so that recall gives it back byte for byte.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { IContent, ToolResponseBlock } from '../../../../services/history/IContent.js';
import { human, toolRoundTrip } from '../../../../test-utils/historyBuilders.js';
import { RecallIndex } from '../../../../services/recall/RecallStore.js';
import { recallIdOfResponse } from '../../recallPointers.js';
import { expandRepeatedLines, namedIn } from '../test-utils/expandRepeatedLines.js';
import { repeatedLinesReply } from './repeatedLines.js';
import { repeatedLinesMarker, repeatedLinesText } from './repeatedLinesText.js';
import { unchangedReadReply } from './unchangedRead.js';

const ws = { workspaceRoot: '/ws' };
const lines = (n: number, tag: string) =>
  Array.from({ length: n }, (_, i) => `src/m${i}.ts:${i + 1}: const ${tag}${i} = load(${i});`)
    .join('\n')
    .concat('\n');
const shell = (id: string, command: string, output: string) =>
  toolRoundTrip(id, 'run_shell_command', { command }, output);
const grep = (id: string, pattern: string, output: string) =>
  toolRoundTrip(id, 'search_file_content', { pattern }, output);

type Asker = typeof unchangedReadReply;
function ask(
  reply: Asker,
  history: readonly IContent[],
  [call, result]: readonly [IContent, IContent],
): ToolResponseBlock | undefined {
  const block = call.blocks[0];
  if (block?.type !== 'tool_call') throw new Error('not a call');
  return reply([...history, call], block, result.blocks[0] as ToolResponseBlock, ws);
}

describe('replies at entry name one call (issue 22)', () => {
  it('#22.4 with reused ids, an identical output gets no "same output as call call_1" reply', () => {
    const out = lines(20, 'hit');
    // The grep's id is reused by a listing whose output is another text.
    const history = [
      human('go'),
      ...grep('call_1', 'hit', out),
      ...shell('call_1', 'ls', lines(9, 'f')),
    ];
    expect(ask(unchangedReadReply, history, grep('call_2', 'hit', out))).toBeUndefined();
    // With distinct ids the same history gets the reply.
    const distinct = [human('go'), ...grep('c1', 'hit', out), ...shell('c2', 'ls', lines(9, 'f'))];
    expect(ask(unchangedReadReply, distinct, grep('c3', 'hit', out))?.result).toBe(
      '[same output as call c1 — that copy is still above]',
    );
  });

  it('#22.4 with reused ids, a re-run sharing lines gets no marker naming an ambiguous call', () => {
    const before = `${lines(30, 'v')}FAILED\n`;
    const after = `${lines(30, 'v')}passed\n`;
    const history = [
      human('go'),
      ...shell('call_1', 'pytest', before),
      ...shell('call_1', 'ls', lines(9, 'f')),
    ];
    expect(ask(repeatedLinesReply, history, shell('call_2', 'pytest', after))).toBeUndefined();
    // The reply's own call reusing the named id is ambiguous too.
    const own = [human('go'), ...shell('call_1', 'pytest', before)];
    expect(ask(repeatedLinesReply, own, shell('call_1', 'pytest', after))).toBeUndefined();
    const distinct = [human('go'), ...shell('c1', 'pytest', before)];
    expect(ask(repeatedLinesReply, distinct, shell('c2', 'pytest', after))?.result).toContain(
      "of call c1's output",
    );
  });
});

const literalMarker = (callId: string, from: number, to: number) =>
  repeatedLinesMarker({ callId, from, to }, 'src/m0.ts:1: x', 'src/m3.ts:4: x');

describe('marker-shaped lines in an output (issue 22)', () => {
  it('#22.5 a failed run printing a marker-shaped line gets no reply that expansion would change', () => {
    const earlier = lines(30, 'v');
    // A failing test log of Dense itself prints a marker naming the earlier call.
    const text = `${lines(30, 'v')}${literalMarker('c1', 1, 4)}\nFAIL`;
    const history = [human('go'), ...shell('c1', 'npm test', earlier)];
    const run = toolRoundTrip('c2', 'run_shell_command', { command: 'npm test' }, '', text);
    const reply = ask(repeatedLinesReply, history, run);
    if (reply !== undefined) {
      const expanded = expandRepeatedLines(String(reply.error), (ref) =>
        namedIn([...history, ...run], ref),
      );
      expect(expanded).toBe(text);
    }
    expect(reply).toBeUndefined();
  });

  it('#22.5 property: reply then expand gives the output back byte for byte, marker-shaped lines included', () => {
    const wordArb = fc.constantFrom(
      'alpha',
      'beta',
      'gamma',
      'delta',
      'epsilon',
      '',
      '\r',
      'ok 1\r',
    );
    const lineArb = fc.oneof(
      wordArb,
      fc
        .record({ id: fc.constantFrom('c1', 'c2', 'x'), from: fc.nat(6), span: fc.nat(6) })
        .map(({ id, from, span }) => literalMarker(id, from + 1, from + 1 + span)),
    );
    const linesArb = (min: number) => fc.array(lineArb, { minLength: min, maxLength: 12 });
    // Outputs that share a run of lines, with marker-shaped lines around and inside it.
    const pairArb = fc
      .record({ common: linesArb(4), before: linesArb(0), after: linesArb(0), old: linesArb(0) })
      .map(({ common, before, after, old }) => ({
        earlier: [...old, ...common].join('\n'),
        text: [...before, ...common, ...after].join('\n'),
      }));
    fc.assert(
      fc.property(pairArb, fc.boolean(), ({ earlier, text }, newline) => {
        const output = newline ? `${text}\n` : text;
        const reply = repeatedLinesText(earlier, output, { callId: 'c1' });
        if (reply === undefined) return;
        const expanded = expandRepeatedLines(reply, (ref) =>
          ref.callId === 'c1' && ref.parameter === undefined ? earlier : undefined,
        );
        expect(expanded).toBe(output);
      }),
      { numRuns: 400 },
    );
  });
});

describe('recall of a reply (issue 22)', () => {
  it("#22.6 a reply's recall id returns the tool's own output, not the reply", () => {
    const before = `${lines(30, 'v')}FAILED\n`;
    const after = `${lines(30, 'v')}passed\n`;
    const history = [human('go'), ...shell('c1', 'pytest', before)];
    const [call, response] = shell('c2', 'pytest', after);
    const reply = ask(repeatedLinesReply, history, [call, response]);
    expect(reply?.result).toContain('repeat here unchanged');
    const index = new RecallIndex();
    for (const entry of [...history, call, { speaker: 'tool' as const, blocks: [reply!] }])
      index.add(entry);
    expect(index.get(recallIdOfResponse(reply!))).toBe(after);
    // The same id the untouched response would have had.
    expect(recallIdOfResponse(reply!)).toBe(
      recallIdOfResponse(response.blocks[0] as ToolResponseBlock),
    );
  });
});
