/**
 * Issue 14.2 end to end: a real shell tool in a temp workspace, a scripted model that runs a
 * command twice whose output changes in one line. The second output enters with its repeated lines
 * as a marker naming the first run; nothing already sent changes.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ScriptedProvider } from '../test-utils/ScriptedProvider.js';
import { workspaceSession } from '../test-utils/workspaceSession.js';
import type { EphemeralSettings } from '../settings/settingsRegistry.js';

let workspace: string;

beforeEach(async () => {
  workspace = await mkdtemp(path.join(os.tmpdir(), 'dense-repeat-'));
});

afterEach(async () => {
  await rm(workspace, { recursive: true, force: true });
});

const run = (id: string, last: number) => ({
  toolCalls: [{ id, name: 'run_shell_command', parameters: { command: `seq 1000 ${last}` } }],
});

async function session(settings: EphemeralSettings) {
  const provider = new ScriptedProvider([
    run('run-1', 1080),
    run('run-2', 1081),
    { text: 'Both ran.' },
  ]);
  const agent = workspaceSession(workspace, provider, {
    'compression.strategy': 'high-density',
    'context-limit': 200_000,
    ...settings,
  });
  await agent.sendMessage('Run it twice.');
  // A reply keeps the tool's own output aside (`original`); the providers never send it.
  const sent = (key: string, value: unknown) => (key === 'original' ? undefined : value);
  const requests = provider.requests.map((request) => JSON.stringify(request.contents, sent));
  return { agent, requests };
}

describe('repeated lines in a live session (issue 14.2)', () => {
  it('#14.2 defaults: a re-run whose output changed in one line enters as that line and a marker naming the first run', async () => {
    const { agent, requests } = await session({});
    const last = requests.at(-1)!;
    expect(last).toMatch(/\[lines 1–81 of call run-1's output repeat here unchanged/);
    expect(last).toContain('1081');
    // The first run's output was sent whole and is sent again unchanged (the cached prefix).
    // The line itself (escaped in the JSON): a timestamp in the entries' metadata may hold 1040.
    expect(last.split('\\n1040\\n').length - 1).toBe(1);
    expect(last.startsWith(requests.at(-2)!.slice(0, -1))).toBe(true);
    const { keptOut } = await agent.contextReport();
    expect(keptOut?.notes).toBe(1);
    expect(keptOut?.tokens).toBeGreaterThan(100);
  });

  it('#14.2 with compression.density.unchangedReads=false both outputs enter whole', async () => {
    const { requests } = await session({ 'compression.density.unchangedReads': false });
    const last = requests.at(-1)!;
    expect(last).not.toContain('repeat here unchanged');
    expect(last.split('\\n1040\\n').length - 1).toBe(2);
  });
});
