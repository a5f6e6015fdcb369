/**
 * The grounding oracle against random sessions: a policy that hides one random tool output from
 * every later call must have exactly the later uses of that output's specifics counted hidden
 * (recallable when it leaves a pointer naming a recall id), and every other use visible.
 */
import { fc, test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import {
  createAiMessage,
  createToolResponse,
  createUserMessage,
  textBlock,
  toolCallBlock,
  type ContentBlock,
  type IContent,
  type ToolResponseBlock,
} from '../../services/history/IContent.js';
import { recordingPosition } from '../oracle/exposureLedger.js';
import { SPECIFIC_KINDS, type SpecificKind } from './extractSpecifics.js';
import { GroundingOracle } from './GroundingOracle.js';
import { planGrounding } from './planGrounding.js';

/** A specific of `kind` that no other index's specific contains. */
function specificText(kind: SpecificKind, i: number): string {
  switch (kind) {
    case 'path':
      return `src/mod${i}/file${i}.ts`;
    case 'line-ref':
      return `lib/unit${i}.rb:${100 + i}`;
    case 'test-name':
      return `test_case_${i}`;
    case 'error':
      return `Fault${i}Error`;
    case 'identifier':
      return `computeItem${i}Total`;
    case 'number':
      return String(40_000 + i);
    default: {
      const never: never = kind;
      return never;
    }
  }
}

const stepArb = fc.record({
  kinds: fc.array(fc.constantFrom(...SPECIFIC_KINDS), { minLength: 1, maxLength: 3 }),
  picks: fc.array(fc.nat(), { maxLength: 4 }),
});

interface Built {
  readonly contents: IContent[];
  /** Per reply entry index: the output step each used specific came from. */
  readonly usesFrom: Map<number, number[]>;
  /** Entry index of each step's tool output. */
  readonly outputAt: number[];
}

function build(steps: readonly { kinds: readonly SpecificKind[]; picks: readonly number[] }[]) {
  const contents: IContent[] = [createUserMessage('go')];
  const usesFrom = new Map<number, number[]>();
  const outputAt: number[] = [];
  const unused: { text: string; step: number }[] = [];
  let serial = 0;
  const reply = (step: number, withCall: boolean) => {
    const used: { text: string; step: number }[] = [];
    for (const pick of steps[step]?.picks ?? []) {
      if (unused.length === 0) break;
      used.push(...unused.splice(pick % unused.length, 1));
    }
    usesFrom.set(
      contents.length,
      used.map((u) => u.step),
    );
    const blocks: ContentBlock[] = [textBlock(`Using ${used.map((u) => u.text).join(' ; ')}`)];
    if (withCall) blocks.push(toolCallBlock(`c${step}`, 'run_shell_command', { command: 'go on' }));
    contents.push(createAiMessage(blocks));
  };
  steps.forEach((step, k) => {
    reply(k, true);
    const shown = step.kinds.map((kind) => specificText(kind, serial++));
    outputAt.push(contents.length);
    contents.push(
      createToolResponse({
        callId: `c${k}`,
        toolName: 'run_shell_command',
        result: `output:\n${shown.join('\n')}`,
      }),
    );
    unused.push(...shown.map((text) => ({ text, step: k })));
  });
  reply(steps.length, false);
  return { contents, usesFrom, outputAt } satisfies Built;
}

function fakeRecallId(block: ToolResponseBlock): string {
  return `r${block.callId.replace(/\D/g, '').padStart(10, 'a').slice(-10)}`;
}

describe('#25.3 grounding oracle property', () => {
  test.prop([fc.array(stepArb, { minLength: 1, maxLength: 6 }), fc.nat(), fc.boolean()])(
    '#25.3 hiding one tool output: its later uses are hidden (recallable with a pointer), the rest visible',
    (steps, hidePick, pointers) => {
      const { contents, usesFrom, outputAt } = build(steps);
      const hiddenStep = hidePick % steps.length;
      const hiddenAt = outputAt[hiddenStep] as number;
      const original = contents[hiddenAt]?.blocks[0] as ToolResponseBlock;
      const stand = createToolResponse({
        callId: original.callId,
        toolName: original.toolName,
        result: pointers ? `[gone — recall id ${fakeRecallId(original)}]` : '[gone]',
      });
      const oracle = new GroundingOracle(planGrounding(contents), fakeRecallId);
      let expectedLost = 0;
      let expectedAll = 0;
      contents.forEach((entry, index) => {
        if (entry.speaker !== 'ai') return;
        const sent = contents.slice(0, index).map((e, i) => (i === hiddenAt ? stand : e));
        oracle.onModelCall(sent, recordingPosition(index, 0));
        const from = usesFrom.get(index) ?? [];
        expectedAll += from.length;
        expectedLost += from.filter((step) => step === hiddenStep).length;
      });
      const totals = oracle.totals();
      expect(totals.specifics).toBe(expectedAll);
      expect(totals.visible).toBe(expectedAll - expectedLost);
      expect(pointers ? totals.recallable : totals.hidden).toBe(expectedLost);
      expect(pointers ? totals.hidden : totals.recallable).toBe(0);
    },
  );
});
