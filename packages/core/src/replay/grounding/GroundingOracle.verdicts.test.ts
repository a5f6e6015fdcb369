/**
 * The oracle remembers per block which specifics a one-block entry shows. Its verdicts must be
 * those of judging every use afresh against every sent entry's text: on random sessions whose
 * specifics overlap (one path inside another, a name that prefixes another, a line reference in
 * traceback form split over two blocks of one message, a quoted message), with entries kept,
 * dropped or replaced by a recall pointer at random per call, and with a second oracle whose
 * entries are new objects holding the same blocks (as another policy's history does).
 */
import { fc, test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import {
  createAiMessage,
  createToolResponse,
  textBlock,
  type IContent,
  type ToolResponseBlock,
} from '../../services/history/IContent.js';
import { recordingPosition } from '../oracle/exposureLedger.js';
import { occursIn, SPECIFIC_KINDS, type SpecificKind } from './extractSpecifics.js';
import { GroundingOracle, type GroundingCounts, type GroundingVerdict } from './GroundingOracle.js';
import { blockText, shownText } from './groundingText.js';
import { planGrounding, type GroundingPlan } from './planGrounding.js';

const POOL = [
  'src/a.ts',
  'lib/src/a.ts',
  'src/a.ts:12',
  'File "lib/b.py", line 7',
  'lib/b.py',
  'line 7',
  'computeTotal',
  'computeTotalAll',
  'test_parse_args',
  'ValueError',
  'TS2345',
  '40213',
  '402131',
  '"Cannot find module lodash"',
];

function recallIdOf(block: ToolResponseBlock): string {
  const hex = [...block.callId].map((c) => c.charCodeAt(0).toString(16)).join('');
  return `r${hex.padStart(10, '0').slice(-10)}`;
}

const sessionArb = fc.array(
  fc.record({
    shown: fc.subarray(POOL, { minLength: 1 }),
    used: fc.subarray(POOL),
    asTool: fc.boolean(),
  }),
  { minLength: 1, maxLength: 8 },
);

function build(steps: readonly { shown: string[]; used: string[]; asTool: boolean }[]) {
  const contents: IContent[] = [];
  steps.forEach((step, k) => {
    const text = `output:\n${step.shown.join('\n')}`;
    const half = Math.ceil(step.shown.length / 2);
    contents.push(
      step.asTool
        ? createToolResponse({ callId: `c${k}`, toolName: 'run_shell_command', result: text })
        : {
            speaker: 'human',
            blocks: [
              textBlock(step.shown.slice(0, half).join('\n')),
              textBlock(step.shown.slice(half).join('\n')),
            ],
          },
    );
    contents.push(createAiMessage([textBlock(`Now ${step.used.join(' and ')}.`)]));
  });
  return contents;
}

/** A pointer per entry, made once so that it is the same object in every call that sends it. */
function pointers(contents: readonly IContent[]): Map<IContent, IContent> {
  const out = new Map<IContent, IContent>();
  for (const entry of contents) {
    const block = entry.blocks[0];
    if (block?.type !== 'tool_response') continue;
    out.set(
      entry,
      createToolResponse({
        callId: block.callId,
        toolName: block.toolName,
        result: `[pruned — recall id ${recallIdOf(block)}]`,
      }),
    );
  }
  return out;
}

/** Every use judged afresh by `occursIn` on each entry's text: nothing remembered. */
function freshCounts(plan: GroundingPlan, calls: readonly Call[]): GroundingCounts {
  const texts = new Map(plan.responses.map(({ block }) => [recallIdOf(block), blockText(block)]));
  const counts: Record<GroundingVerdict, number> = { visible: 0, recallable: 0, hidden: 0 };
  for (const { sent, position } of calls) {
    const named = sent.flatMap((entry) =>
      [...shownText(entry).matchAll(/\brecall id (r[0-9a-f]{10})\b/g)].map((m) => m[1] ?? ''),
    );
    for (const { specific } of plan.uses.get(position) ?? []) {
      const visible = sent.some((entry) =>
        occursIn(specific, entry.blocks.map(blockText).join('\n')),
      );
      const recallable = named.some((id) => {
        const text = texts.get(id);
        return text !== undefined && occursIn(specific, text);
      });
      counts[visible ? 'visible' : recallable ? 'recallable' : 'hidden']++;
    }
  }
  return { specifics: counts.visible + counts.recallable + counts.hidden, ...counts };
}

interface Call {
  readonly sent: readonly IContent[];
  readonly position: number;
}

function countsOf(oracle: GroundingOracle): GroundingCounts {
  const { specifics, visible, recallable, hidden } = oracle.totals();
  return { specifics, visible, recallable, hidden };
}

describe('#25.3 grounding oracle: verdicts remembered per block', () => {
  test.prop([sessionArb, fc.array(fc.constantFrom('keep', 'drop', 'point'), { minLength: 64 })])(
    '#25.3 remembered and fresh verdicts agree on random sessions (twice, the second time over new entries of the same blocks)',
    (steps, fates) => {
      const contents = build(steps);
      const plan = planGrounding(contents);
      const stand = pointers(contents);
      let pick = 0;
      const calls: Call[] = [];
      contents.forEach((entry, index) => {
        if (entry.speaker !== 'ai') return;
        const sent = contents.slice(0, index).flatMap((e) => {
          const fate = fates[pick++ % fates.length];
          if (fate === 'drop') return [];
          return fate === 'point' ? [stand.get(e) ?? e] : [e];
        });
        calls.push({ sent, position: recordingPosition(index, 0) });
      });
      const expected = freshCounts(plan, calls);
      for (let round = 0; round < 2; round++) {
        const oracle = new GroundingOracle(plan, recallIdOf);
        for (const call of calls) {
          const sent = round === 0 ? call.sent : call.sent.map((entry) => ({ ...entry }));
          oracle.onModelCall(sent, call.position);
        }
        expect(countsOf(oracle)).toEqual(expected);
        const byKind = oracle.totals().byKind;
        const sum = (k: keyof GroundingCounts) =>
          SPECIFIC_KINDS.reduce((n, kind: SpecificKind) => n + byKind[kind][k], 0);
        expect(sum('visible')).toBe(expected.visible);
        expect(sum('hidden')).toBe(expected.hidden);
      }
    },
  );
});
