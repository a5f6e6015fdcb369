import { describe, expect, it } from 'vitest';
import { fc, test } from '@fast-check/vitest';
import {
  fitSummaryLines,
  OLDER_SPECIFICS_CHARS,
  SPECIFICS_CHARS,
  type SummaryLine,
} from './fitSummaryLines.js';

/** `count` distinct items of output `n`, 16 characters each with the separator. */
const items = (n: number, count: number): string[] =>
  Array.from(
    { length: count },
    (_, i) => `out${String(n).padStart(2, '0')}item${String(i).padStart(5, '0')}`,
  );

function outputs(count: number, itemsEach: number): SummaryLine[] {
  return [
    { text: 'User: reconcile the ledger' },
    ...Array.from({ length: count }, (_, n) => ({
      text: `[run_shell_command npm run ledger ${n} — success; recall id r${n}]`,
      specifics: items(n, itemsEach),
    })),
  ];
}

const length = (lines: readonly string[]) => lines.join('\n').length;

describe('fitSummaryLines', () => {
  it('#24.10 when every line fits with a wide share, each output keeps more than 1,600 characters of specifics', () => {
    const fitted = fitSummaryLines(outputs(4, 200), 40_000);
    expect(fitted).toHaveLength(5);
    for (const line of fitted.slice(1)) expect(line.length).toBeGreaterThan(SPECIFICS_CHARS + 60);
  });

  it('#24.10 over the budget, older outputs keep their line and first specifics before any line is left out', () => {
    const lines = outputs(30, 200);
    const fitted = fitSummaryLines(lines, 40_000);
    expect(fitted.join('\n')).not.toContain('earlier lines left out');
    expect(fitted[1]).toContain('npm run ledger 0');
    expect(fitted[1]).toContain('out00item00000');
    expect((fitted[1] as string).length).toBeLessThanOrEqual(60 + OLDER_SPECIFICS_CHARS + 1);
    // The newest output keeps the most.
    expect((fitted.at(-1) as string).length).toBeGreaterThan(SPECIFICS_CHARS);
    expect(length(fitted)).toBeLessThanOrEqual(40_000);
  });

  it('#24.10 when even the bare lines do not fit, the oldest are left out and counted', () => {
    const fitted = fitSummaryLines(outputs(200, 50), 6_000);
    expect(fitted[0]).toBe('User: reconcile the ledger');
    expect(fitted[1]).toMatch(/^\[… \d+ earlier lines left out\]$/);
    expect(fitted.at(-1)).toContain('npm run ledger 199');
    expect(length(fitted)).toBeLessThanOrEqual(6_000);
  });

  it('#33 an old output the agent came back to keeps its line and specifics before newer ones it never used', () => {
    const lines = outputs(200, 50);
    // Output 3 was used after the last line (a schema the agent keeps coming back to).
    const reused: SummaryLine = { ...(lines[4] as SummaryLine), lastUse: lines.length };
    lines[4] = reused;
    const fitted = fitSummaryLines(lines, 6_000);
    const kept = fitted.find((line) => line.includes('npm run ledger 3 '));
    expect(kept).toBeDefined();
    expect(kept).toContain('out03item00000');
    // The lines left out on either side of it are said where they were.
    expect(fitted[1]).toBe('[… 3 earlier lines left out]');
    expect(fitted[3]).toMatch(/^\[… \d+ lines left out\]$/);
    expect(fitted.at(-1)).toContain('npm run ledger 199');
    expect(length(fitted)).toBeLessThanOrEqual(6_000);
  });

  it('#33 the newest failed output is taken right after the newest lines, before outputs used again', () => {
    const lines = outputs(200, 50);
    lines[51] = { ...(lines[51] as SummaryLine), failed: true };
    for (const index of [5, 6, 7, 8, 9]) {
      lines[index] = { ...(lines[index] as SummaryLine), lastUse: lines.length };
    }
    const fitted = fitSummaryLines(lines, 3_000);
    expect(fitted.some((line) => line.includes('npm run ledger 50 '))).toBe(true);
    expect(length(fitted)).toBeLessThanOrEqual(3_000);
  });

  test.prop([
    fc.array(
      fc.record({
        text: fc.string({ minLength: 1, maxLength: 120 }).map((s) => s.replace(/\n/g, ' ')),
        specifics: fc.option(fc.array(fc.stringMatching(/^[a-zA-Z_]{3,40}$/), { maxLength: 60 }), {
          nil: undefined,
        }),
      }),
      { minLength: 1, maxLength: 60 },
    ),
    fc.integer({ min: 200, max: 30_000 }),
  ])(
    '#24.10 the fitted lines stay within the budget, keep the first line and a newest run of the others, each beginning with its own line',
    (raw, budget) => {
      const lines: SummaryLine[] = raw.map((line) =>
        line.specifics === undefined
          ? { text: line.text }
          : { text: line.text, specifics: line.specifics },
      );
      const fitted = fitSummaryLines(lines, budget);
      const [first, ...rest] = lines;
      expect(fitted[0]?.startsWith(first?.text ?? '')).toBe(true);
      const marker = /^\[… (\d+) earlier lines left out\]$/.exec(fitted[1] ?? '');
      const skipped = marker === null ? 0 : Number(marker[1]);
      const kept = fitted.slice(marker === null ? 1 : 2);
      expect(skipped + kept.length).toBe(rest.length);
      kept.forEach((line, i) => expect(line.startsWith(rest[skipped + i]?.text ?? '')).toBe(true));
      if ((fitted[0]?.length ?? 0) + 40 <= budget) {
        expect(length(fitted)).toBeLessThanOrEqual(budget);
      }
    },
  );
});
