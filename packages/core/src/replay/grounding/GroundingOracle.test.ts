import { describe, expect, it } from 'vitest';
import {
  createAiMessage,
  createToolResponse,
  createUserMessage,
  textBlock,
  toolCallBlock,
  type IContent,
  type ToolResponseBlock,
} from '../../services/history/IContent.js';
import { recordingPosition } from '../oracle/exposureLedger.js';
import type { SpecificKind } from './extractSpecifics.js';
import { GroundingOracle } from './GroundingOracle.js';
import { planGrounding } from './planGrounding.js';

function respond(callId: string, toolName: string, result: string): IContent {
  return createToolResponse({ callId, toolName, result });
}

/** A fake recall id: the test's own, so that nothing here needs the strategies' hashing. */
export function fakeRecallId(block: ToolResponseBlock): string {
  const hex = [...block.callId].map((c) => c.charCodeAt(0).toString(16)).join('');
  return `r${hex.padStart(10, '0').slice(-10)}`;
}

/** The pointer a hiding policy leaves, in the documented shape. */
export function pointerFor(block: ToolResponseBlock): IContent {
  return respond(block.callId, block.toolName, `[pruned — recall id ${fakeRecallId(block)}]`);
}

/** user asks; the agent runs a command; the output shows `output`; the agent then writes `use`. */
function session(output: string, use: string): IContent[] {
  return [
    createUserMessage('please look into the failing build'),
    createAiMessage([toolCallBlock('c1', 'run_shell_command', { command: 'make check' })]),
    respond('c1', 'run_shell_command', output),
    createAiMessage([textBlock(use)]),
  ];
}

function judge(contents: readonly IContent[], sent: readonly IContent[]) {
  const oracle = new GroundingOracle(planGrounding(contents), fakeRecallId);
  oracle.onModelCall(sent, recordingPosition(contents.length - 1, 0));
  return oracle.totals();
}

const KIND_CASES: readonly { kind: SpecificKind; output: string; use: string }[] = [
  { kind: 'path', output: 'wrote build/out/bundle.js', use: 'Open build/out/bundle.js next.' },
  { kind: 'line-ref', output: 'lib/sum.rb:57: syntax error', use: 'The problem is lib/sum.rb:57.' },
  {
    kind: 'test-name',
    output: 'FAILED test_rounds_half_up',
    use: 'I will fix test_rounds_half_up.',
  },
  { kind: 'error', output: 'raised KeyringLockedError', use: 'That is a KeyringLockedError.' },
  {
    kind: 'identifier',
    output: 'undefined: computeLedgerTotal',
    use: 'Define computeLedgerTotal.',
  },
  { kind: 'number', output: 'listening on 49731', use: 'Connect to port 49731.' },
];

describe('#25.3 GroundingOracle: one fixed case per specific kind', () => {
  for (const { kind, output, use } of KIND_CASES) {
    it(`#25.3 ${kind}: kept is visible, hidden is caught, a pointer makes it recallable`, () => {
      const contents = session(output, use);
      const sent = contents.slice(0, -1);
      const kept = judge(contents, sent);
      expect(kept.byKind[kind]).toEqual({ specifics: 1, visible: 1, recallable: 0, hidden: 0 });

      const response = contents[2]?.blocks[0] as ToolResponseBlock;
      const hiddenSent = [...sent.slice(0, 2), respond('c1', 'run_shell_command', '')];
      const hidden = judge(contents, hiddenSent);
      expect(hidden.byKind[kind]).toEqual({ specifics: 1, visible: 0, recallable: 0, hidden: 1 });
      expect(hidden.examples[0]).toMatchObject({ kind, verdict: 'hidden' });

      const recalled = judge(contents, [...sent.slice(0, 2), pointerFor(response)]);
      expect(recalled.byKind[kind]).toEqual({
        specifics: 1,
        visible: 0,
        recallable: 1,
        hidden: 0,
      });
    });
  }
});

describe('#25.3 GroundingOracle', () => {
  it('#25.3 a specific the agent named before any output showed it is not counted', () => {
    const contents = [
      createUserMessage('start'),
      createAiMessage([toolCallBlock('c1', 'write_file', { file_path: 'pkg/newThing.go' })]),
      respond('c1', 'write_file', 'wrote pkg/newThing.go'),
      createAiMessage([textBlock('Created pkg/newThing.go.')]),
    ];
    expect(judge(contents, []).specifics).toBe(0);
  });

  it("#33.5 a specific a recorded compaction summary brought up first is the agent's own", () => {
    const summary = createUserMessage('Summary: next, look under app/routes for the handlers.');
    const contents = [
      createUserMessage('start'),
      { ...summary, metadata: { ...summary.metadata, isSummary: true } },
      createAiMessage([toolCallBlock('c1', 'glob', { path: 'app/routes' })]),
    ];
    expect(judge(contents, []).specifics).toBe(0);
    // The same text typed by the user is earlier context.
    const typed = [contents[0], summary, contents[2]] as IContent[];
    expect(judge(typed, []).specifics).toBe(1);
  });

  it('#25.3 a specific still shown by another entry is visible when its origin is hidden', () => {
    const contents = [
      createUserMessage('the port is 49731'),
      createAiMessage([toolCallBlock('c1', 'run_shell_command', { command: 'ss -l' })]),
      respond('c1', 'run_shell_command', 'listening on 49731'),
      createAiMessage([textBlock('Port 49731 it is.')]),
    ];
    const sent = [contents[0], contents[1], respond('c1', 'run_shell_command', '')];
    expect(judge(contents, sent as IContent[])).toMatchObject({ visible: 1, hidden: 0 });
  });

  it('#25.3 without a recall resolver a pointer does not make it recallable', () => {
    const contents = session('listening on 49731', 'Port 49731.');
    const response = contents[2]?.blocks[0] as ToolResponseBlock;
    const oracle = new GroundingOracle(planGrounding(contents));
    oracle.onModelCall([...contents.slice(0, 2), pointerFor(response)], recordingPosition(3, 0));
    expect(oracle.totals()).toMatchObject({ recallable: 0, hidden: 1 });
  });
});
