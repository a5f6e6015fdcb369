import { describe, expect, it } from 'vitest';
import type { BilledRequest } from './cacheBillingMock.js';
import { costByLength, lengthTable } from './costByLength.js';
import { growingSession } from './growingSession.js';

const bill = (promptTokens: number, weighted: number): BilledRequest =>
  ({ promptTokens, weighted }) as BilledRequest;

describe('bench:proxy:length', () => {
  it('#24.5 the cost per call at a length is the mean over the calls of the last band of growth up to it', () => {
    const passThrough = [10, 20, 30, 40, 50, 60].map((k) => bill(k * 1_000, k * 100));
    const proxy = passThrough.map(() => bill(15_000, 1_000));
    const rows = costByLength({
      passThrough,
      proxy,
      lengths: [30_000, 55_000, 90_000],
      band: 20_000,
    });
    // 90k is never reached: no row.
    expect(rows.map((row) => row.length)).toEqual([30_000, 55_000]);
    const [at30, at55] = rows;
    // Calls past 10k up to the first at ≥ 30k: 20k and 30k.
    expect(at30).toMatchObject({
      call: 2,
      bandCalls: 2,
      passThroughPerCall: 2_500,
      proxyPerCall: 1_000,
    });
    expect(at30?.percent).toBeCloseTo(40);
    expect(at30).toMatchObject({
      passThroughTotal: 6_000,
      proxyTotal: 3_000,
      passThroughPrompt: 30_000,
    });
    // Calls past 35k up to the first at ≥ 55k: 40k, 50k, 60k.
    expect(at55).toMatchObject({
      call: 5,
      bandCalls: 3,
      passThroughPerCall: 5_000,
      proxyPrompt: 15_000,
    });
    expect(lengthTable(rows)).toContain(
      '| 30.0k | 3 | 30.0k / 15.0k | 2.5k / 1.0k | 40.0% | 6.0k / 3.0k | 50.0% |',
    );
    expect(() => costByLength({ passThrough, proxy: [], lengths: [1] })).toThrow(
      /different numbers/,
    );
  });

  it('#24.5 the synthetic session grows past the length asked for with Read, Edit and Bash rounds, the same each time', () => {
    const count = (text: string) => Math.ceil(text.length / 4);
    const session = growingSession({ historyTokens: 30_000, count });
    const again = growingSession({ historyTokens: 30_000, count });
    expect(again).toEqual(session);
    const calls = session.contents.flatMap((entry) =>
      entry.blocks.flatMap((block) => (block.type === 'tool_call' ? [block.name] : [])),
    );
    expect(new Set(calls)).toEqual(new Set(['read_file', 'replace', 'run_shell_command', 'grep']));
    const tokens = session.contents
      .flatMap((entry) => entry.blocks)
      .reduce((sum, block) => {
        if (block.type === 'text') return sum + count(block.text);
        if (block.type === 'tool_call') return sum + count(JSON.stringify(block.parameters));
        if (block.type === 'tool_response') return sum + count(String(block.result));
        return sum;
      }, 0);
    expect(tokens).toBeGreaterThanOrEqual(30_000);
    expect(tokens).toBeLessThan(45_000);
    // Every call is answered, and calls are 15 s apart (inside the 5-minute cache).
    const results = session.contents.flatMap((entry) =>
      entry.blocks.flatMap((block) => (block.type === 'tool_response' ? [block.callId] : [])),
    );
    expect(results).toHaveLength(calls.length);
    const times = session.contents.flatMap((entry) =>
      typeof entry.metadata?.timestamp === 'number' ? [entry.metadata.timestamp] : [],
    );
    expect(times.every((t, i) => i === 0 || t - (times[i - 1] ?? 0) === 15_000)).toBe(true);
  });
});
