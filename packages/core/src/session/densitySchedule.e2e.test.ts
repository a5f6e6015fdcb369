/**
 * Issue 14.3 end to end through a real session (real tools in a temp workspace, a scripted model):
 * a stale read deep in a cached history waits for its cache anchor, the requests carry it, and
 * the batch is applied under the same anchor; a batch that pays back may cost up front at most
 * what density saved so far plus `compression.density.cacheRiskAllowance` × what the session
 * would have cost without density, the allowance only for a batch that already waited a step
 * (#35.2), so a session that ends right after its last edit costs no more than without density.
 */
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ScriptedProvider, type ScriptedReplySpec } from '../test-utils/ScriptedProvider.js';
import { workspaceSession } from '../test-utils/workspaceSession.js';
import type { DensityAppliedEvent, DensityDeferredEvent } from '../core/CompressionHandler.js';

/** `export const <name>0 = 0;` … one line per constant. */
const lines = (n: number, name: string) =>
  Array.from({ length: n }, (_, i) => `export const ${name}${i} = ${i};`).join('\n');

const BIG = lines(600, 'value');

let workspace: string;

beforeEach(async () => {
  workspace = await mkdtemp(path.join(os.tmpdir(), 'dense-schedule-'));
  await mkdir(path.join(workspace, 'src'));
});

afterEach(async () => {
  await rm(workspace, { recursive: true, force: true });
});

const read = (id: string, file: string): ScriptedReplySpec => ({
  toolCalls: [{ id, name: 'read_file', parameters: { file_path: file } }],
});

describe('cache anchors in a live session (issue 14.3)', () => {
  it('#14.3 the request after a deferred deep edit carries the anchor; the batch then goes under it', async () => {
    await writeFile(path.join(workspace, 'src', 'big.ts'), `${BIG}\n`);
    for (let i = 0; i < 12; i++)
      await writeFile(path.join(workspace, 'src', `s${i}.ts`), `s${i}\n`);
    const provider = new ScriptedProvider([
      read('big', 'src/big.ts'),
      ...Array.from({ length: 12 }, (_, i) => read(`s${i}`, `src/s${i}.ts`)),
      {
        toolCalls: [
          {
            id: 'edit',
            name: 'replace',
            parameters: {
              file_path: 'src/big.ts',
              old_string: 'value0 = 0',
              new_string: 'value0 = 1',
            },
          },
        ],
      },
      read('s-again', 'src/s0.ts'),
      read('s-again-2', 'src/s1.ts'),
      { text: 'Done.' },
    ]);
    const session = workspaceSession(workspace, provider, {
      'compression.strategy': 'high-density',
      'context-limit': 200_000,
    });
    const deferred: DensityDeferredEvent[] = [];
    const applied: DensityAppliedEvent[] = [];
    session.compression.events.on('densityDeferred', (e) => deferred.push(e));
    session.compression.events.on('densityApplied', (e) => applied.push(e));
    await session.sendMessage(`Context for the task:\n${'background detail '.repeat(600)}`);

    const reasons = deferred.map((e) => e.schedule.reason);
    expect(reasons[0]).toBe('awaiting-anchor');
    const stale = applied.find((e) => e.metadata.readWrite > 0);
    expect(stale?.schedule?.reason).toBe('pays-back');
    // Priced from the anchor: the ~1,200-token message before it stays cached (a 20-block-deep
    // edit used to lose the whole prompt), and /context's estimate uses that figure.
    expect(stale?.explicitInvalidatedTokens).toBeLessThan(stale!.tokensBefore - 1_000);
    // The request right after the deferral and the one that applied the batch mark the entry
    // just before the stale read's result: the read call of src/big.ts.
    const anchoredRequests = provider.requests.filter((r) => (r.cacheAnchors ?? []).length > 0);
    expect(anchoredRequests.length).toBeGreaterThanOrEqual(2);
    for (const request of anchoredRequests) {
      const anchor = request.cacheAnchors?.[0];
      expect(anchor?.blocks.some((b) => b.type === 'tool_call' && b.id === 'big')).toBe(true);
      expect(request.contents).toContain(anchor);
    }
    expect(JSON.stringify(provider.requests.at(-1)?.contents)).not.toContain('value399 = 399');
  });
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
  const stale = (e: { metadata: { readWrite: number } }) => e.metadata.readWrite > 0;
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

  it('#35.2 a batch that has just appeared is not bet on the allowance: with half the cost so far allowed and nothing earned yet, it still waits (the session ends right after, and costs no more than without density)', async () => {
    const { deferred, applied } = await run(0.5);
    expect(applied).toEqual([]);
    expect(deferred[0]?.schedule.reason).toBe('deferred');
  });
});
