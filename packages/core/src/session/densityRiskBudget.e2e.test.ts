/**
 * Issue 14.3 end to end through a real session: a batch applied because it pays back may cost up
 * front at most what density saved so far plus `compression.density.cacheRiskAllowance` × what
 * the session would have cost without density, so a session that ends before the payback still
 * costs about what it would have without density.
 */
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ScriptedProvider, type ScriptedReplySpec } from '../test-utils/ScriptedProvider.js';
import { workspaceSession } from '../test-utils/workspaceSession.js';
import type { DensityAppliedEvent, DensityDeferredEvent } from '../core/CompressionHandler.js';

const lines = (n: number, name: string) =>
  Array.from({ length: n }, (_, i) => `export const ${name}${i} = ${i * 7};`).join('\n');

let workspace: string;

beforeEach(async () => {
  workspace = await mkdtemp(path.join(os.tmpdir(), 'dense-risk-'));
  await mkdir(path.join(workspace, 'src'));
});

afterEach(async () => {
  await rm(workspace, { recursive: true, force: true });
});

const read = (id: string, file: string): ScriptedReplySpec => ({
  toolCalls: [{ id, name: 'read_file', parameters: { file_path: file } }],
});

/** Reads big.ts, then mid.ts, then edits big.ts: the big read goes stale with mid.ts after it. */
async function run(allowance: number) {
  await writeFile(path.join(workspace, 'src', 'big.ts'), `${lines(400, 'big')}\n`);
  await writeFile(path.join(workspace, 'src', 'mid.ts'), `${lines(200, 'mid')}\n`);
  const provider = new ScriptedProvider([
    read('big', 'src/big.ts'),
    read('mid', 'src/mid.ts'),
    {
      toolCalls: [
        {
          id: 'edit',
          name: 'replace',
          parameters: { file_path: 'src/big.ts', old_string: 'big0 = 0', new_string: 'big0 = 1' },
        },
      ],
    },
    { text: 'Done.' },
  ]);
  const session = workspaceSession(workspace, provider, {
    'compression.strategy': 'high-density',
    'context-limit': 200_000,
    // Long enough a horizon that only the budget decides.
    'compression.density.cachePaybackCalls': 10,
    'compression.density.cacheRiskAllowance': allowance,
  });
  const deferred: DensityDeferredEvent[] = [];
  const applied: DensityAppliedEvent[] = [];
  session.compression.events.on('densityDeferred', (e) => deferred.push(e));
  session.compression.events.on('densityApplied', (e) => applied.push(e));
  await session.sendMessage('Set big0 to 1.');
  const stale = (e: { metadata: { readWritePairsPruned: number } }) =>
    e.metadata.readWritePairsPruned > 0;
  return { deferred: deferred.filter(stale), applied: applied.filter(stale) };
}

describe('the risk budget in a live session (issue 14.3)', () => {
  it('#14.3 with nothing saved yet and no allowance, a batch that costs up front waits although it pays back in time', async () => {
    const { deferred, applied } = await run(0);
    expect(applied).toEqual([]);
    expect(deferred.length).toBeGreaterThan(0);
    const [first] = deferred;
    expect(first?.schedule.reason).toBe('deferred');
    // It would pay back within the 10-call horizon: only the budget held it.
    expect(first?.schedule.paybackCalls).toBeGreaterThan(0);
    expect(first?.schedule.paybackCalls).toBeLessThanOrEqual(10);
  });

  it('#14.3 with an allowance of half the cost so far, the same batch goes at once', async () => {
    const { deferred, applied } = await run(0.5);
    expect(deferred).toEqual([]);
    expect(applied.map((e) => e.schedule?.reason)).toEqual(['pays-back']);
  });
});
