import { describe, expect, it } from 'vitest';
import {
  createAiMessage,
  createToolResponse,
  createUserMessage,
  textBlock,
  toolCallBlock,
  type IContent,
} from '../../services/history/IContent.js';
import { recordingPosition } from '../oracle/exposureLedger.js';
import { GroundingOracle, type RecallTextSource } from './GroundingOracle.js';
import { planGrounding } from './planGrounding.js';

const shell = (callId: string, result: string): IContent =>
  createToolResponse({ callId, toolName: 'run_shell_command', result });

/** Two outputs, each showing one port; the agent uses both, one reply after the other. */
const contents: readonly IContent[] = [
  createUserMessage('find the ports'),
  createAiMessage([toolCallBlock('c1', 'run_shell_command', { command: 'ss -l' })]),
  shell('c1', 'listening on 49731'),
  createAiMessage([toolCallBlock('c2', 'run_shell_command', { command: 'ss -u' })]),
  shell('c2', 'listening on 50112'),
  createAiMessage([textBlock('Port 49731 is tcp.')]),
  createAiMessage([textBlock('Port 50112 is udp; 49731 stays.')]),
];

/** An archive as a plain map: the ids and texts are the test's own. */
const archive = (entries: Record<string, string>): RecallTextSource => ({
  textOf: (id) => entries[id],
});

const pointer = (callId: string, id: string): IContent =>
  shell(callId, `[Result pruned (stale read) — run \`dense recall ${id}\` to see the original]`);

describe('#24.5 GroundingOracle with an archive and the proxy pointer shape', () => {
  it('#24.5 an id named as `dense recall <id>` and kept by the archive makes a use recallable', () => {
    const sent = [...contents.slice(0, 2), pointer('c1', 'r00000000a1'), ...contents.slice(3, 5)];
    const oracle = new GroundingOracle(
      planGrounding(contents),
      archive({ r00000000a1: 'listening on 49731' }),
    );
    oracle.onModelCall(sent, recordingPosition(5, 0));
    expect(oracle.totals()).toMatchObject({ specifics: 1, visible: 0, recallable: 1, hidden: 0 });
    expect(oracle.recallIdsNeeded()).toEqual(['r00000000a1']);
  });

  it('#24.5 an id the archive does not keep leaves the use hidden and needs no recall call', () => {
    const sent = [...contents.slice(0, 2), pointer('c1', 'r00000000a1'), ...contents.slice(3, 5)];
    const oracle = new GroundingOracle(planGrounding(contents), archive({}));
    oracle.onModelCall(sent, recordingPosition(5, 0));
    expect(oracle.totals()).toMatchObject({ recallable: 0, hidden: 1 });
    expect(oracle.recallIdsNeeded()).toEqual([]);
  });

  it('#24.5 recall calls needed: an id already fetched serves later uses; else the shortest text', () => {
    const whole = 'listening on 49731\nlistening on 50112';
    const oracle = new GroundingOracle(
      planGrounding(contents),
      archive({
        r00000000a1: 'listening on 49731',
        r00000000a2: 'listening on 50112',
        r00000000ff: whole,
      }),
    );
    const summary = createUserMessage(
      `[earlier messages: run \`dense recall r00000000ff\`; ss -l; recall id r00000000a1; ss -u; recall id r00000000a2]`,
    );
    oracle.onModelCall([summary], recordingPosition(5, 0));
    oracle.onModelCall([summary, contents[5] as IContent], recordingPosition(6, 0));
    expect(oracle.totals()).toMatchObject({ specifics: 3, visible: 1, recallable: 2, hidden: 0 });
    expect(oracle.recallIdsNeeded()).toEqual(['r00000000a1', 'r00000000a2']);
  });

  it('#24.5 hasUsesAt says which replies used earlier context', () => {
    const oracle = new GroundingOracle(planGrounding(contents));
    expect(oracle.hasUsesAt(recordingPosition(5, 0))).toBe(true);
    expect(oracle.hasUsesAt(recordingPosition(3, 0))).toBe(false);
  });

  it('#35.1 with response ids as the resolver, an id only the archive keeps (a summary transcript) still makes a use recallable', () => {
    const sent = [...contents.slice(0, 2), pointer('c1', 'r00000000b2'), ...contents.slice(3, 5)];
    const byResponse = () => 'r00000000ff';
    const without = new GroundingOracle(planGrounding(contents), byResponse);
    without.onModelCall(sent, recordingPosition(5, 0));
    expect(without.totals()).toMatchObject({ recallable: 0, hidden: 1 });
    const withArchive = new GroundingOracle(
      planGrounding(contents),
      byResponse,
      archive({ r00000000b2: 'c1 → listening on 49731' }),
    );
    withArchive.onModelCall(sent, recordingPosition(5, 0));
    expect(withArchive.totals()).toMatchObject({ recallable: 1, hidden: 0 });
  });
});
