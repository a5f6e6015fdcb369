import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { expandRepeatedLines } from './test-utils/expandRepeatedLines.js';
import {
  isRepeatedLinesReply,
  MIN_REPEATED_LINES,
  outputLines,
  parseRepeatedLinesMarker,
  repeatedLinesMarker,
  repeatedLinesText,
  sharedLineChars,
} from './repeatedLinesText.js';

const lines = (from: number, to: number) =>
  Array.from({ length: to - from + 1 }, (_, i) => `line ${from + i}`);

describe('repeatedLinesText (issue 14.2, repeated lines)', () => {
  it('#14.2 a run of shared lines becomes one marker naming the call and its lines; the rest stays verbatim', () => {
    const earlier = `${lines(1, 30).join('\n')}\n`;
    const text = `${lines(11, 30).join('\n')}\nline 31\nline 32\n`;
    const reply = repeatedLinesText(earlier, text, 'c7');
    expect(reply).toBe(
      `${repeatedLinesMarker('c7', 11, 30, 'line 11', 'line 30')}\nline 31\nline 32\n`,
    );
    expect(reply).toContain(`[lines 11–30 of call c7's output repeat here unchanged (still above)`);
    expect(isRepeatedLinesReply(reply)).toBe(true);
    expect(isRepeatedLinesReply(`output first\n${reply!}`)).toBe(true);
    expect(isRepeatedLinesReply(text)).toBe(false);
    expect(parseRepeatedLinesMarker(reply!.split('\n')[0]!)).toEqual({
      callId: 'c7',
      from: 11,
      to: 30,
    });
    expect(expandRepeatedLines(reply!, () => earlier)).toBe(text);
  });

  it('#14.2 runs shorter than the minimum stay verbatim, and no run means no reply', () => {
    const earlier = lines(1, MIN_REPEATED_LINES - 1).join('\n');
    expect(repeatedLinesText(earlier, `${earlier}\nnew`, 'c1')).toBeUndefined();
    expect(repeatedLinesText('a\nb\nc\nd\ne', 'v\nw\nx\ny\nz', 'c1')).toBeUndefined();
  });

  it('#14.2 a line reporting an exit code stays verbatim inside a run (density reads success from it)', () => {
    const body = lines(1, 10);
    const earlier = [...body.slice(0, 5), 'Exit Code: 1', ...body.slice(5)].join('\n');
    const reply = repeatedLinesText(earlier, earlier, 'c2')!;
    expect(reply.split('\n')).toHaveLength(3);
    expect(reply.split('\n')[1]).toBe('Exit Code: 1');
    expect(expandRepeatedLines(reply, () => earlier)).toBe(earlier);
  });

  it('#14.2 a marker quotes at most 60 characters of the first and last line', () => {
    const long = 'x'.repeat(200);
    const marker = repeatedLinesMarker('c1', 1, 9, long, 'end');
    expect(marker.length).toBeLessThan(200);
    expect(marker).toContain(`"${'x'.repeat(60)}…"`);
  });

  it('#14.2 sharedLineChars bounds what a reply can save', () => {
    expect(sharedLineChars(new Set(outputLines('a\nbb\nccc\n')), ['bb', 'ccc', 'd'])).toBe(7);
    expect(sharedLineChars(new Set(['a']), ['b'])).toBe(0);
  });

  it('#14.2 property: expanding the reply with the earlier output gives the output back', () => {
    const line = fc.constantFrom('alpha', 'beta', 'gamma', 'delta', '', 'Exit Code: 0', '  x = 1');
    // The output is the earlier one with a few lines inserted, dropped or changed.
    const edit = fc.record({
      at: fc.nat(),
      drop: fc.nat({ max: 2 }),
      insert: fc.array(line, { maxLength: 3 }),
    });
    const pair = fc
      .tuple(
        fc.array(line, { maxLength: 40 }),
        fc.array(edit, { maxLength: 4 }),
        fc.boolean(),
        fc.boolean(),
      )
      .map(([ls, edits, nl1, nl2]) => {
        const out = [...ls];
        for (const e of edits) out.splice(e.at % (out.length + 1), e.drop, ...e.insert);
        const join = (xs: string[], nl: boolean) =>
          xs.join('\n') + (nl && xs.length > 0 ? '\n' : '');
        return [join(ls, nl1), join(out, nl2)] as const;
      });
    let replies = 0;
    fc.assert(
      fc.property(pair, ([earlier, output]) => {
        const reply = repeatedLinesText(earlier, output, 'c1');
        if (reply === undefined) return;
        replies++;
        expect(isRepeatedLinesReply(reply)).toBe(true);
        expect(expandRepeatedLines(reply, () => earlier)).toBe(output);
      }),
      { numRuns: 1000 },
    );
    expect(replies).toBeGreaterThan(200);
  });
});
