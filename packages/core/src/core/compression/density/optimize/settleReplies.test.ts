/**
 * No reply dangles: after every compression (any strategy, across strategy switches) and every
 * density pass, each text a reply names is in the history, above it, as the tool's own output —
 * or the reply is the tool's own output again — and recall of any id gives the original bytes.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type {
  IContent,
  ToolCallBlock,
  ToolResponseBlock,
} from '../../../../services/history/IContent.js';
import { HistoryService } from '../../../../services/history/HistoryService.js';
import { charEstimateTokenCounter } from '../../../../services/history/TokenCounter.js';
import { pairToolCallsByPosition } from '../../../../services/history/toolCallPairing.js';
import { InMemoryRecallStore } from '../../../../services/recall/RecallStore.js';
import { human, toolRoundTrip } from '../../../../test-utils/historyBuilders.js';
import { ScriptedProvider } from '../../../../test-utils/ScriptedProvider.js';
import { testCompressionHandler } from '../../../../test-utils/testCompressionHandler.js';
import type { EphemeralSettings } from '../../../../settings/settingsRegistry.js';
import { COMPRESSION_STRATEGIES, type CompressionStrategyName } from '../../types.js';
import { recallIdOfResponse } from '../../recallPointers.js';
import { expandRepeatedLines } from '../test-utils/expandRepeatedLines.js';
import { repeatedLinesReply } from '../entry/repeatedLines.js';
import { parseRepeatedLinesMarker, repeatedLinesMarker } from '../entry/repeatedLinesText.js';
import { unchangedReadReply } from '../entry/unchangedRead.js';

const ROOT = '/ws';
const lines = (n: number, tag: string, from = 0) =>
  Array.from({ length: n }, (_, i) => `src/m${from + i}.ts:${i + 1}: const ${tag} = load(${i});`)
    .join('\n')
    .concat('\n');

/** A session's history, compression and recall as AgentSession wires them, tools scripted. */
class ReplySession {
  readonly history = new HistoryService({ tokenCounter: charEstimateTokenCounter });
  readonly recall = new InMemoryRecallStore();
  /** The tool's own output by the recall id of its response. */
  readonly truth = new Map<string, string>();
  /** The tool's own output by call id and the text recorded for it (a reply's, or the output). */
  readonly recorded = new Map<string, string>();
  readonly provider = new ScriptedProvider();
  readonly handler;
  readonly runtime;

  constructor(settings: EphemeralSettings) {
    const made = testCompressionHandler({
      history: this.history,
      settings: { 'context-limit': 4000, 'compression.preserveThreshold': 0.3, ...settings },
      provider: this.provider,
      workspaceRoot: ROOT,
    });
    this.handler = made.handler;
    this.runtime = made.runtime;
    this.history.add(human('go'));
    this.recall.record(human('go'));
  }

  /** Records one call and its output, answered by a reply when the session would give one. */
  tool(id: string, name: string, parameters: unknown, output: string): ToolResponseBlock {
    const [call, answer] = toolRoundTrip(id, name, parameters, output);
    this.history.add(call);
    const callBlock = call.blocks[0] as ToolCallBlock;
    const own = answer.blocks[0] as ToolResponseBlock;
    this.truth.set(recallIdOfResponse(own), output);
    const raw = this.history.getRawHistory();
    const ws = { workspaceRoot: ROOT };
    const reply = this.repliesOn()
      ? (unchangedReadReply(raw, callBlock, own, ws) ?? repeatedLinesReply(raw, callBlock, own, ws))
      : undefined;
    const entry: IContent = { speaker: 'tool', blocks: [reply ?? own] };
    this.recorded.set(`${id}\u0000${shown(reply ?? own)}`, output);
    this.history.add(entry);
    this.recall.record(call);
    this.recall.record(entry);
    this.handler.markDirty();
    return reply ?? own;
  }

  private repliesOn(): boolean {
    return (
      this.handler.currentStrategy().name === 'high-density' &&
      !this.runtime.settings.get('compression.density.recencyPruning')
    );
  }

  async compress(): Promise<void> {
    this.provider.push({ text: 'Summary: the agent ran the tests and searched the sources.' });
    await this.handler.ensureDensityOptimized({ underPressure: true });
    await this.handler.performCompression('p');
  }
}

/** The text of a response the model sees. */
function shown(block: ToolResponseBlock): string {
  if (block.error !== undefined) return block.error;
  return typeof block.result === 'string' ? block.result : '';
}

const SAME =
  /^\[(?:same output as call|unchanged since the read in call) (\S+) — that copy is still above\]$/;

/**
 * Checks every reply in `history` independently of the code under test: a call id names the
 * first call with it; that call's answer must be above the reply and expand it to the truth.
 */
async function expectNoDanglingReply(session: ReplySession): Promise<void> {
  const history = session.history.getRawHistory();
  const { calls, responses } = pairToolCallsByPosition(history);
  const first = new Map<string, (typeof calls)[number]>();
  for (const call of calls) if (!first.has(call.block.id)) first.set(call.block.id, call);
  for (const site of responses) {
    const id = recallIdOfResponse(site.block);
    const text = shown(site.block);
    const truth =
      session.truth.get(id) ?? session.recorded.get(`${site.block.callId}\u0000${text}`);
    // A result compression replaced by a pointer or summary: the id it names is checked below.
    if (truth === undefined) continue;
    expect(await session.recall.lookup(id)).toEqual({ kind: 'found', content: truth });
    if (text === truth) continue;
    const above = (callId: string): string | undefined => {
      const answer = first.get(callId)?.responses[0];
      if (answer === undefined) return undefined;
      const isAbove =
        answer.entryIndex < site.entryIndex ||
        (answer.entryIndex === site.entryIndex && answer.blockIndex < site.blockIndex);
      return isAbove ? shown(answer.block) : undefined;
    };
    const same = SAME.exec(text);
    if (same !== null) expect(above(same[1]!)).toBe(truth);
    else if (text.split('\n').some((line) => parseRepeatedLinesMarker(line) !== undefined))
      expect(expandRepeatedLines(text, (ref) => above(ref.callId))).toBe(truth);
  }
  // Every recall id the history names resolves.
  for (const entry of history)
    for (const block of entry.blocks) {
      const text =
        block.type === 'tool_response' ? shown(block) : block.type === 'text' ? block.text : '';
      for (const [, named] of text.matchAll(/recall id (r[0-9a-f]{10})/g)) {
        const found = await session.recall.lookup(named!);
        const truth = session.truth.get(named!);
        expect(found.kind).toBe('found');
        if (truth !== undefined) expect(found).toEqual({ kind: 'found', content: truth });
      }
    }
}

const big = (tag: string) => lines(40, tag);

/** A high-density session (2,000-token limit): grep `g1` for `pattern` giving `output`, four shell calls. */
function grepThenShells(pattern: string, output: string, extra: EphemeralSettings = {}) {
  const session = new ReplySession({
    'compression.strategy': 'high-density',
    'context-limit': 2000,
    ...extra,
  });
  session.tool('g1', 'search_file_content', { pattern }, output);
  for (let i = 0; i < 4; i++)
    session.tool(`s${i}`, 'run_shell_command', { command: `echo ${i}` }, big(`x${i}`));
  return session;
}

describe('replies after compression (issue 22)', () => {
  it('#22.6 top-down truncation drops the run a "same output" reply names: the reply is the output again', async () => {
    const out = big('hit');
    const session = grepThenShells('hit', out);
    const reply = session.tool('g2', 'search_file_content', { pattern: 'hit' }, out);
    expect(reply.result).toBe('[same output as call g1 — that copy is still above]');
    session.runtime.settings.set('compression.strategy', 'top-down-truncation');
    await session.compress();
    const raw = session.history.getRawHistory();
    expect(raw.some((e) => e.blocks.some((b) => b.type === 'tool_call' && b.id === 'g1'))).toBe(
      false,
    );
    const kept = raw
      .flatMap((e) => e.blocks)
      .find((b) => b.type === 'tool_response' && b.callId === 'g2');
    expect(kept).toMatchObject({ result: out });
    await expectNoDanglingReply(session);
  });

  it('#22.6 high-density compress summarizes the grep a repeated-lines marker names: no marker says "still above" about it', async () => {
    const session = grepThenShells('a', `${big('v')}old\n`, {
      'compression.density.pointerStyle': 'recall',
    });
    const reply = session.tool('g2', 'search_file_content', { pattern: 'b' }, `${big('v')}new\n`);
    expect(reply.result).toContain("of call g1's output repeat here unchanged");
    await session.compress();
    const g1 = session.history
      .getRawHistory()
      .flatMap((e) => e.blocks)
      .find((b) => b.type === 'tool_response' && b.callId === 'g1');
    expect(g1 === undefined || shown(g1 as ToolResponseBlock) !== `${big('v')}old\n`).toBe(true);
    await expectNoDanglingReply(session);
  });

  it('#22.6 an LLM strategy after a switch summarizes away what a reply names: the reply is the output again', async () => {
    const out = big('hit');
    const session = grepThenShells('hit', out);
    session.tool('g2', 'search_file_content', { pattern: 'hit' }, out);
    session.runtime.settings.set('compression.strategy', 'one-shot');
    await session.compress();
    const ids = session.history
      .getRawHistory()
      .flatMap((e) => e.blocks)
      .flatMap((b) => (b.type === 'tool_response' ? [b.callId] : []));
    expect(ids).toContain('g2');
    expect(ids).not.toContain('g1');
    await expectNoDanglingReply(session);
  });
});

const OUTPUTS = [
  big('a'),
  `${big('a')}FAILED\n`,
  lines(40, 'a', 3),
  big('b'),
  `${big('b')}${repeatedLinesMarker({ callId: 'call_1', from: 1, to: 5 }, 'x', 'y')}\n`,
  lines(12, 'c'),
];

type Op =
  | { readonly kind: 'tool'; readonly id: string; readonly tool: number; readonly output: number }
  | { readonly kind: 'compress' }
  | { readonly kind: 'switch'; readonly strategy: CompressionStrategyName }
  | { readonly kind: 'recency'; readonly on: boolean };

const TOOLS = [
  { name: 'run_shell_command', parameters: { command: 'npm test' } },
  { name: 'search_file_content', parameters: { pattern: 'load' } },
  { name: 'list_directory', parameters: { path: '/ws/src' } },
];

const opArb: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      kind: fc.constant('tool' as const),
      id: fc.constantFrom('call_1', 'call_2', 'call_3', 'fresh'),
      tool: fc.nat(TOOLS.length - 1),
      output: fc.nat(OUTPUTS.length - 1),
    }),
  },
  { weight: 1, arbitrary: fc.constant({ kind: 'compress' as const }) },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('switch' as const),
      strategy: fc.constantFrom(...COMPRESSION_STRATEGIES),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('recency' as const), on: fc.boolean() }) },
);

describe('replies never dangle (issue 22)', () => {
  it('#22.6 property: after every call, compression, strategy switch and density pass, each reply stands and recall gives the original', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(opArb, { minLength: 4, maxLength: 30 }),
        fc.constantFrom<'recall' | 'spec'>('recall', 'spec'),
        async (ops, pointerStyle) => {
          const session = new ReplySession({
            'compression.strategy': 'high-density',
            'compression.density.pointerStyle': pointerStyle,
            'compression.density.recencyRetention': 1,
          });
          let fresh = 0;
          for (const op of ops) {
            if (op.kind === 'tool') {
              const tool = TOOLS[op.tool]!;
              const id = op.id === 'fresh' ? `u${++fresh}` : op.id;
              session.tool(id, tool.name, tool.parameters, OUTPUTS[op.output]!);
            } else if (op.kind === 'compress') await session.compress();
            else if (op.kind === 'switch')
              session.runtime.settings.set('compression.strategy', op.strategy);
            else {
              session.runtime.settings.set('compression.density.recencyPruning', op.on);
              session.handler.markDirty();
              await session.handler.ensureDensityOptimized({ underPressure: true });
            }
            await session.history.waitForTokenUpdates();
            await expectNoDanglingReply(session);
          }
        },
      ),
      { numRuns: 60 },
    );
  });
});
