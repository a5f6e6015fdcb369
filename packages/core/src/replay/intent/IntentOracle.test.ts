import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { textBlock, type IContent } from '../../services/history/IContent.js';
import { recordingPosition } from '../oracle/exposureLedger.js';
import { IntentOracle, LONG_PASTE_CHARS, sumIntent, ZERO_INTENT } from './IntentOracle.js';
import { planIntent } from './planIntent.js';

const human = (text: string, metadata?: IContent['metadata']): IContent => ({
  speaker: 'human',
  blocks: [textBlock(text)],
  ...(metadata ? { metadata } : {}),
});
const ai = (text: string): IContent => ({ speaker: 'ai', blocks: [textBlock(text)] });

describe('planIntent', () => {
  it('#33.5 takes what the user typed: client context, summaries and attachments are not the user', () => {
    const recording = [
      human('<system-reminder>\nYou have tools.\n</system-reminder>\nFix the ledger tests'),
      human('<system-reminder>only context</system-reminder>'),
      human('Summary of the conversation so far', { isSummary: true }),
      human('<system-reminder>file a.ts</system-reminder>', { attachment: 'file' }),
      ai('ok'),
      human('<ide_opened_file>x</ide_opened_file>Also keep the API stable'),
    ];
    expect(planIntent(recording)).toEqual([
      { position: recordingPosition(0, 0), text: 'Fix the ledger tests' },
      { position: recordingPosition(5, 0), text: 'Also keep the API stable' },
    ]);
  });

  it("#33.4 a skill's text the client loaded is not a user message; the user's next words are", () => {
    const recording = [
      human('Review the parser'),
      human('# Review skill\nCheck every file.', { attachment: 'skill' }),
      {
        speaker: 'human',
        blocks: [
          { type: 'tool_response', callId: 'c2', toolName: 'Skill', result: 'Launching skill: x' },
          textBlock('# Another skill'),
          textBlock('Skip the tests'),
        ],
      } satisfies IContent,
    ];
    expect(planIntent(recording).map((message) => message.text)).toEqual([
      'Review the parser',
      'Skip the tests',
    ]);
  });
});

describe('IntentOracle', () => {
  const recording = [
    human('Fix the ledger tests, do not touch the schema'),
    ai('Looking.'),
    human('Use the\n  existing helper'),
    ai('Done.'),
  ];
  const plan = planIntent(recording);
  const at = (entry: number) => recordingPosition(entry, 0);

  it('#33.5 counts every earlier user message at each call: verbatim, or lost to a paraphrase', () => {
    const oracle = new IntentOracle(plan);
    oracle.onModelCall(recording.slice(0, 1), at(1));
    oracle.onModelCall([human('The user wants tests fixed.'), recording[2] as IContent], at(3));
    expect(oracle.totals()).toEqual({
      ...ZERO_INTENT,
      calls: 2,
      callsWithAll: 1,
      messages: 3,
      verbatim: 2,
      cut: 0,
      lost: 1,
    });
  });

  it('#33.5 finds a multi-line message re-indented inside a summary', () => {
    const oracle = new IntentOracle(plan);
    const summary = human(
      'User said:\n- Fix the ledger tests, do not touch the schema\n- Use the\n    existing helper',
    );
    oracle.onModelCall([summary], at(3));
    expect(oracle.totals()).toMatchObject({ messages: 2, verbatim: 2, lost: 0 });
  });

  it('#33.5 counts a long paste shown as head and tail as cut, not lost', () => {
    const paste = `${'log line\n'.repeat(LONG_PASTE_CHARS / 9 + 10)}end of log`;
    const pasted = [human(paste), ai('ok')];
    const oracle = new IntentOracle(planIntent(pasted));
    const shown = `${paste.slice(0, 1000)}\n[… cut, recall id r0123456789]\n${paste.slice(-1000)}`;
    oracle.onModelCall([human(shown)], at(1));
    expect(oracle.totals()).toMatchObject({ messages: 1, cut: 1, lost: 0 });
  });

  test.prop([
    fc.array(fc.stringMatching(/^[a-z]{6,20}( [a-z]{3,12}){2,5}$/), { minLength: 2, maxLength: 8 }),
    fc.nat(),
  ])(
    '#33.5 property: a policy that drops a random user message is caught; one that keeps them all is not',
    (said, pick) => {
      const unique = [...new Set(said)];
      fc.pre(unique.length >= 2);
      const session = unique.flatMap((text, i) => [human(`${text} #${i}`), ai(`reply ${i}`)]);
      const messages = planIntent(session);
      const last = recordingPosition(session.length, 0);
      const keepAll = new IntentOracle(messages);
      keepAll.onModelCall(session, last);
      expect(keepAll.totals().lost).toBe(0);
      const dropped = (pick % unique.length) * 2;
      const dropOne = new IntentOracle(messages);
      dropOne.onModelCall(
        session.filter((_, i) => i !== dropped),
        last,
      );
      expect(dropOne.totals().lost).toBe(1);
    },
  );
});

describe('sumIntent', () => {
  it('#33.5 adds every count of the runs it is given and skips runs without one', () => {
    const one = {
      calls: 2,
      callsWithAll: 1,
      messages: 5,
      verbatim: 3,
      cut: 1,
      lost: 1,
      callsWithTasks: 2,
      tasksVisible: 1,
      callsWithFailure: 1,
      failureVisible: 0,
    };
    expect(sumIntent([one, undefined, one])).toEqual({
      calls: 4,
      callsWithAll: 2,
      messages: 10,
      verbatim: 6,
      cut: 2,
      lost: 2,
      callsWithTasks: 4,
      tasksVisible: 2,
      callsWithFailure: 2,
      failureVisible: 0,
    });
    expect(sumIntent([])).toEqual(ZERO_INTENT);
  });
});
