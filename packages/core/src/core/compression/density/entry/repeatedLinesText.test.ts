import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { expandRepeatedLines } from '../test-utils/expandRepeatedLines.js';
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
    const reply = repeatedLinesText(earlier, text, { callId: 'c7' });
    expect(reply).toBe(
      `${repeatedLinesMarker({ callId: 'c7', from: 11, to: 30 }, 'line 11', 'line 30')}\nline 31\nline 32\n`,
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
    expect(repeatedLinesText(earlier, `${earlier}\nnew`, { callId: 'c1' })).toBeUndefined();
    expect(repeatedLinesText('a\nb\nc\nd\ne', 'v\nw\nx\ny\nz', { callId: 'c1' })).toBeUndefined();
  });

  it('#14.2 a line reporting an exit code stays verbatim inside a run (density reads success from it)', () => {
    const body = lines(1, 10);
    const earlier = [...body.slice(0, 5), 'Exit Code: 1', ...body.slice(5)].join('\n');
    const reply = repeatedLinesText(earlier, earlier, { callId: 'c2' })!;
    expect(reply.split('\n')).toHaveLength(3);
    expect(reply.split('\n')[1]).toBe('Exit Code: 1');
    expect(expandRepeatedLines(reply, () => earlier)).toBe(earlier);
  });

  it('#14.2 a marker may name a parameter of a call (a tool echoing what it was sent), and says when the lines repeat with CRLF ends', () => {
    const content = `${lines(1, 12).join('\n')}\n`;
    const echoed = `Wrote f.md. Here is the updated code:\n${lines(1, 12).join('\r\n')}\r\n`;
    const reply = repeatedLinesText(content, echoed, { callId: 'w1', parameter: 'content' })!;
    expect(reply).toBe(
      `Wrote f.md. Here is the updated code:\n${repeatedLinesMarker({ callId: 'w1', from: 1, to: 12, parameter: 'content', crlf: true }, 'line 1', 'line 12')}\n`,
    );
    expect(reply).toContain(
      `[lines 1–12 of call w1's "content" parameter repeat here unchanged, with CRLF line ends (still above): "line 1" … "line 12"]`,
    );
    expect(parseRepeatedLinesMarker(reply.split('\n')[1]!)).toEqual({
      callId: 'w1',
      from: 1,
      to: 12,
      parameter: 'content',
      crlf: true,
    });
    expect(expandRepeatedLines(reply, () => content)).toBe(echoed);
    // A line whose ends differ the other way (the earlier one has the CR) stays verbatim, and so
    // splits a run: here into runs of 5 and 6.
    const mixed = `${lines(1, 5).join('\n')}\n${lines(6, 6).join('')}\r\n${lines(7, 12).join('\n')}\n`;
    const back = repeatedLinesText(mixed, content, { callId: 'w1' })!;
    expect(back.split('\n').filter((l) => isRepeatedLinesReply(l))).toHaveLength(2);
    expect(back).toContain('\nline 6\n');
    expect(expandRepeatedLines(back, () => mixed)).toBe(content);
  });

  it('#14.2 a marker quotes at most 60 characters of the first and last line', () => {
    const long = 'x'.repeat(200);
    const marker = repeatedLinesMarker({ callId: 'c1', from: 1, to: 9 }, long, 'end');
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
        fc.constantFrom('none', 'none', 'output', 'earlier', 'some'),
        fc.array(fc.boolean(), { minLength: 1, maxLength: 50 }),
      )
      .map(([ls, edits, nl1, nl2, crMode, crs]) => {
        const out = [...ls];
        for (const e of edits) out.splice(e.at % (out.length + 1), e.drop, ...e.insert);
        // Some lines of either text end in a carriage return (a CRLF file echoed, a Windows tool).
        const cr = (xs: string[], some: boolean) =>
          xs.splice(
            0,
            xs.length,
            ...xs.map((x, i) => (!some || crs[i % crs.length] ? `${x}\r` : x)),
          );
        if (crMode === 'output' || crMode === 'some') cr(out, crMode === 'some');
        if (crMode === 'earlier') cr(ls, false);
        const join = (xs: string[], nl: boolean) =>
          xs.join('\n') + (nl && xs.length > 0 ? '\n' : '');
        return [join(ls, nl1), join(out, nl2)] as const;
      });
    let replies = 0;
    let crlf = 0;
    fc.assert(
      fc.property(pair, ([earlier, output]) => {
        const reply = repeatedLinesText(earlier, output, { callId: 'c1' });
        if (reply === undefined) return;
        replies++;
        if (reply.includes('with CRLF line ends')) crlf++;
        expect(isRepeatedLinesReply(reply)).toBe(true);
        expect(expandRepeatedLines(reply, () => earlier)).toBe(output);
      }),
      { numRuns: 1000 },
    );
    // A fifth of the cases end every earlier line in a CR, which no output line repeats.
    expect(replies).toBeGreaterThan(120);
    expect(crlf).toBeGreaterThan(20);
  });

  it('#33.4 a client reminder block is never split by a marker: it stays whole, verbatim', () => {
    const body = Array.from({ length: 8 }, (_, i) => `entry ${i + 1}`);
    const reminder = (tokens: number) => [
      '<system-reminder>',
      'Plan mode is off.',
      'Keep going.',
      `Tokens left: ${tokens}`,
      '</system-reminder>',
    ];
    const earlier = [...body, ...reminder(100)].join('\n');
    const text = [...body, ...reminder(200)].join('\n');
    const reply = repeatedLinesText(earlier, text, { callId: 'c3' });
    expect(reply).toBe(
      [
        repeatedLinesMarker({ callId: 'c3', from: 1, to: 8 }, 'entry 1', 'entry 8'),
        ...reminder(200),
      ].join('\n'),
    );
  });
});
