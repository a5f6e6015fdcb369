/**
 * A reply at entry ("same output as call …", "unchanged since the read in call …", repeated-lines
 * markers) replaces an output only when it costs fewer tokens than the output: a short output
 * repeated under a long, random-looking call id enters whole.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ScriptedProvider } from '../test-utils/ScriptedProvider.js';
import { workspaceSession } from '../test-utils/workspaceSession.js';

let workspace: string;

beforeEach(async () => {
  workspace = await mkdtemp(path.join(os.tmpdir(), 'dense-reply-cost-'));
});

afterEach(async () => {
  await rm(workspace, { recursive: true, force: true });
});

/** Plain words: few tokens for their length, unlike the ids below. */
const SHORT_OUTPUT =
  'the list was saved and you may go on with the work that is next on it now, so keep the list up to date';
const LONG_OUTPUT = Array.from({ length: 40 }, (_, i) => `line ${i} of the report`).join('\n');

const echo = (id: string, text: string) => ({
  toolCalls: [{ id, name: 'run_shell_command', parameters: { command: `echo '${text}'` } }],
});

async function run(text: string) {
  const provider = new ScriptedProvider([
    echo('toolu_01Xq7ZkP9rWmB3vN8cTfYh2L', text),
    echo('toolu_01Jd4GsQ6yEaR1uK5oVbMn8C', text),
    { text: 'Done.' },
  ]);
  const agent = workspaceSession(workspace, provider, {
    'compression.strategy': 'high-density',
    'context-limit': 200_000,
  });
  await agent.sendMessage('Save it twice.');
  const last = JSON.stringify(provider.requests.at(-1)!.contents);
  return { agent, last };
}

describe('replies at entry cost less than what they replace', () => {
  it('#22.18 a short output repeated under a long call id enters whole: the reply would cost more tokens', async () => {
    const { agent, last } = await run(SHORT_OUTPUT);
    expect(last).not.toContain('same output as call');
    expect(last.split(SHORT_OUTPUT).length - 1).toBeGreaterThanOrEqual(2);
    const { keptOut } = await agent.contextReport();
    expect(keptOut?.notes ?? 0).toBe(0);
  });

  it('#22.18 a long repeated output still becomes the reply', async () => {
    const { agent, last } = await run(LONG_OUTPUT.replaceAll('\n', ' '));
    expect(last).toContain('[same output as call toolu_01Xq7ZkP9rWmB3vN8cTfYh2L');
    const { keptOut } = await agent.contextReport();
    expect(keptOut?.notes).toBe(1);
    expect(keptOut?.tokens).toBeGreaterThan(0);
  });
});
