/** Progress on stderr: a bar redrawn in place on a terminal, plain lines every N files otherwise. */
import { describe, expect, it } from 'vitest';
import { savingsProgress } from './savingsProgress.js';

function stream(isTTY: boolean) {
  const out = { text: '' };
  return { out, stream: { isTTY, columns: 60, write: (chunk: string) => (out.text += chunk) } };
}

describe('#37.1 savingsProgress', () => {
  it('#37.1 not a terminal: a line every N files and one at the end', () => {
    const { out, stream: s } = stream(false);
    const progress = savingsProgress(s, 7, 3);
    for (let done = 0; done <= 7; done++) progress.update(done, `f${done}`);
    progress.finish();
    expect(out.text).toBe(
      'dense savings: 3 of 7 files replayed\ndense savings: 6 of 7 files replayed\ndense savings: 7 of 7 files replayed\n',
    );
  });

  it('#37.1 a terminal: the bar redrawn with carriage returns, cleared at the end', () => {
    const { out, stream: s } = stream(true);
    const progress = savingsProgress(s, 2);
    progress.update(1, 'a.jsonl');
    progress.finish();
    expect(out.text).toMatch(/^\r\[#{10}-{10}\] 1\/2 a\.jsonl */);
    expect(out.text.endsWith(`\r${' '.repeat(59)}\r`)).toBe(true);
  });
});
