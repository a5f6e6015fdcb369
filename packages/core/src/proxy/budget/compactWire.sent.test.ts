import { describe, expect, it } from 'vitest';
import { spliceEdits } from '../splice/spliceEdits.js';
import { bigSessionTurns } from '../test-utils/bigSession.js';
import { densityCompactInput } from '../test-utils/densityCompactInput.js';
import { compactWire } from './compactWire.js';

/** compactWire on `body` with density's pointers, counting the characters of sent text built. */
function compactCounting(body: string, budgetTokens: number) {
  let built = 0;
  const { input, sites } = densityCompactInput(body, budgetTokens, (chars) => {
    built += chars;
  });
  const result = compactWire(input);
  return { result, built, sites };
}

describe('compactWire', () => {
  it('#24.4 builds the sent text only for a request that is not clearly under its budget', () => {
    const [body] = bigSessionTurns(40_000, 1) as [string];
    const under = compactCounting(body, 10_000_000);
    expect(under.sites.length).toBeGreaterThan(0);
    expect(under).toMatchObject({ result: { kind: 'none' }, built: 0 });
    const over = compactCounting(body, 5_000);
    expect(over).toMatchObject({ result: { kind: 'compacted' } });
    expect(over.built).toBeGreaterThan(0);
  });

  it('#24.4 builds only the sent text that goes out: never the messages the summary replaces', () => {
    const [body] = bigSessionTurns(40_000, 1) as [string];
    const { result, built, sites } = compactCounting(body, 5_000);
    if (result.kind === 'none') throw new Error('not compacted');
    const whole = spliceEdits(body, sites).text;
    // Everything before the cut is replaced; only the text after it is spliced.
    expect(built).toBeLessThan(body.length / 4);
    expect(result.chars).toBe(whole.length - result.removedChars);
  });
});
