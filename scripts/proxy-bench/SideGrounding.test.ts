import { describe, expect, it } from 'vitest';
import type { IContent } from '@dense/core';
import { BenchRecallArchive } from './BenchRecallArchive.js';
import { SideGrounding } from './SideGrounding.js';

/** A Codex session: a command whose output shows a port, then a reply that uses it. */
const contents: readonly IContent[] = [
  { speaker: 'human', blocks: [{ type: 'text', text: 'which port?' }] },
  {
    speaker: 'ai',
    blocks: [
      { type: 'tool_call', id: 'c1', name: 'run_shell_command', parameters: { command: 'ss -l' } },
    ],
  },
  {
    speaker: 'tool',
    blocks: [
      { type: 'tool_response', callId: 'c1', toolName: 'run_shell_command', result: 'on 49731' },
    ],
  },
  { speaker: 'ai', blocks: [{ type: 'text', text: 'It listens on 49731.' }] },
];

/** The Responses API body a side sent for the last call, with `output` as the command's output. */
const body = (output: string) => ({
  model: 'gpt-5',
  instructions: 'synthetic prefix that mentions 49731',
  input: [
    { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'which port?' }] },
    {
      type: 'function_call',
      call_id: 'c1',
      name: 'shell_command',
      arguments: '{"command":"ss -l"}',
    },
    { type: 'function_call_output', call_id: 'c1', output },
  ],
});

describe('bench:proxy SideGrounding', () => {
  it('#24.5 a Codex request showing the output grounds the use; the instructions do not count', () => {
    const shown = new SideGrounding(contents, 'openai-responses');
    shown.onCall(body('on 49731'), 3);
    expect(shown.report()).toMatchObject({ specifics: 1, visible: 1, hidden: 0 });

    const dropped = new SideGrounding(contents, 'openai-responses');
    dropped.onCall(body('[summarized]'), 3);
    expect(dropped.report()).toMatchObject({ specifics: 1, visible: 0, hidden: 1 });
  });

  it('#24.5 a `dense recall` pointer is recallable only while the archive keeps its original', async () => {
    const archive = new BenchRecallArchive(100);
    const pointer = 'run `dense recall r00000000c1` to see the original';
    const side = new SideGrounding(contents, 'openai-responses', archive);
    await archive.put('conversation', [{ id: 'r00000000c1', text: 'on 49731' }]);
    side.onCall(body(pointer), 3);
    expect(side.report()).toMatchObject({ recallable: 1, hidden: 0, recallIds: ['r00000000c1'] });

    await archive.put('conversation', [{ id: 'r00000000c2', text: 'x'.repeat(100) }]);
    expect(archive.textOf('r00000000c1')).toBeUndefined();
    const evicted = new SideGrounding(contents, 'openai-responses', archive);
    evicted.onCall(body(pointer), 3);
    expect(evicted.report()).toMatchObject({ recallable: 0, hidden: 1, recallCallsNeeded: 0 });
  });

  it('#24.5 a call whose reply used nothing earlier is not judged', () => {
    const side = new SideGrounding(contents, 'openai-responses');
    side.onCall(body(''), 1);
    expect(side.report().specifics).toBe(0);
  });
});
