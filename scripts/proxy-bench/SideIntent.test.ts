import { describe, expect, it } from 'vitest';
import { fc, test } from '@fast-check/vitest';
import type { IContent } from '@dense/core';
import { SideIntent } from './SideIntent.js';
import { sentEntries } from './sentEntries.js';

const say = (speaker: 'human' | 'ai', text: string): IContent => ({
  speaker,
  blocks: [{ type: 'text', text }],
});

/** Three user messages with model replies between them; the user's last reply is at entry 5. */
const PROMPTS = [
  'Fix the rounding in the invoice totals.',
  'Keep the public API as it is.',
  'Go on.',
];
const contents: readonly IContent[] = [
  say('human', PROMPTS[0] as string),
  say('ai', 'Looking at the totals.'),
  say('human', PROMPTS[1] as string),
  say('ai', 'Understood.'),
  say('human', PROMPTS[2] as string),
  say('ai', 'Done.'),
];

/** The Anthropic body a side sent: the user's messages it kept, each answered. */
function body(kept: readonly string[]): unknown {
  return {
    system: 'synthetic prefix',
    messages: kept.flatMap((text) => [
      { role: 'user', content: [{ type: 'text', text }] },
      { role: 'assistant', content: [{ type: 'text', text: 'ok' }] },
    ]),
  };
}

function judged(kept: readonly string[]) {
  const side = new SideIntent(contents);
  const call = side.onCall(sentEntries(body(kept), 'anthropic'), 5);
  return { call, report: side.report() };
}

describe('bench:proxy SideIntent', () => {
  it('#33.5 a side whose request keeps every earlier user message is counted verbatim', () => {
    const { call, report } = judged(PROMPTS);
    expect(call).toEqual({ messages: 3, verbatim: 3, cut: 0, lost: 0 });
    expect(report).toMatchObject({ calls: 1, callsWithAll: 1, messages: 3, verbatim: 3, lost: 0 });
  });

  it('#33.5 a side whose request drops a user message is counted lost for it', () => {
    const { call, report } = judged([PROMPTS[1] as string, PROMPTS[2] as string]);
    expect(call).toEqual({ messages: 3, verbatim: 2, cut: 0, lost: 1 });
    expect(report).toMatchObject({ calls: 1, callsWithAll: 0, verbatim: 2, lost: 1 });
  });

  it('#33.5 a summary that paraphrases the user is lost; one that quotes them keeps them', () => {
    const summary = (text: string) => ({
      messages: [{ role: 'user', content: [{ type: 'text', text }] }],
    });
    const side = new SideIntent(contents.slice(0, 2));
    const paraphrased = sentEntries(
      summary('Summary: the user wants rounding fixed.'),
      'anthropic',
    );
    expect(side.onCall(paraphrased, 1)).toMatchObject({ verbatim: 0, lost: 1 });
    const quoted = sentEntries(summary(`Summary. The user said: "${PROMPTS[0]}"`), 'anthropic');
    expect(side.onCall(quoted, 1)).toMatchObject({ verbatim: 1, lost: 0 });
  });

  it('#33.5 a call before any user message is not judged; the position is the one grounding uses', () => {
    const side = new SideIntent([say('ai', 'hello'), ...contents]);
    expect(side.onCall([], 0)).toBeUndefined();
    // Entry 1 is the user's first message: a request standing for it comes before it.
    expect(side.onCall([], 1)).toBeUndefined();
    expect(side.onCall([], 2)).toMatchObject({ messages: 1, lost: 1 });
    expect(side.report()).toMatchObject({ calls: 1 });
  });

  it('#33.5 calls sent on a synthetic summary are counted apart', () => {
    const side = new SideIntent(contents);
    side.onCall(sentEntries(body(PROMPTS), 'anthropic'), 3, true);
    side.onCall(sentEntries(body(PROMPTS), 'anthropic'), 5, false);
    expect(side.report()).toMatchObject({ calls: 2, callsOnSyntheticSummary: 1 });
  });

  test.prop([fc.subarray([0, 1, 2])])(
    '#33.5 whichever user messages a side drops are the ones counted lost, request after request',
    (dropped) => {
      const side = new SideIntent(contents);
      const kept = PROMPTS.filter((_, i) => !dropped.includes(i));
      // The same body twice: the second call reuses the first one's entries and must agree.
      for (const index of [5, 5]) {
        expect(side.onCall(sentEntries(body(kept), 'anthropic'), index)).toEqual({
          messages: 3,
          verbatim: 3 - dropped.length,
          cut: 0,
          lost: dropped.length,
        });
      }
    },
  );

  it('#33.5 the task list and the latest failure are judged in what the side sent, a call before any user message too', () => {
    const recording: IContent[] = [
      say('ai', 'Setting up.'),
      {
        speaker: 'ai',
        blocks: [
          {
            type: 'tool_call',
            id: 't1',
            name: 'TaskCreate',
            parameters: { subject: 'Port the CSV reader' },
          },
        ],
      },
      {
        speaker: 'tool',
        blocks: [
          {
            type: 'tool_response',
            callId: 't1',
            toolName: 'TaskCreate',
            result: 'Task #1 created successfully: Port the CSV reader',
          },
        ],
      },
      {
        speaker: 'ai',
        blocks: [
          { type: 'tool_call', id: 'b1', name: 'Bash', parameters: { command: 'npm test' } },
        ],
      },
      {
        speaker: 'tool',
        blocks: [
          {
            type: 'tool_response',
            callId: 'b1',
            toolName: 'Bash',
            result: '',
            error: 'Exit code 1\nTypeError: row is undefined',
          },
        ],
      },
      say('ai', 'Looking at the row.'),
    ];
    const sent = (text: string) =>
      sentEntries({ messages: [{ role: 'user', content: [{ type: 'text', text }] }] }, 'anthropic');
    const side = new SideIntent(recording);
    expect(
      side.onCall(sent('Tasks: Port the CSV reader. Last error: TypeError: row is undefined'), 5),
    ).toBeUndefined();
    side.onCall(sent('Tasks: none. The tests failed.'), 5);
    expect(side.report()).toMatchObject({
      calls: 0,
      callsWithTasks: 2,
      tasksVisible: 1,
      callsWithFailure: 2,
      failureVisible: 1,
    });
  });
});
