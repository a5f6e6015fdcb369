import { describe, expect, it } from 'vitest';
import { crossCheckSection } from './benchApart.js';

describe('bench: oracle cross-check section', () => {
  it('#12 lists each disagreement with its session, call and both verdicts, reads before writes', () => {
    const section = crossCheckSection([
      {
        source: 'mini',
        session: 's1.json',
        disagreements: [
          {
            at: 'c1',
            subject: 'run_shell_command rm a.py',
            aspect: 'writes',
            oracle: '/w/a.py',
            strategy: '—',
          },
          {
            at: 'c2',
            subject: 'run_shell_command cat ~/x | head',
            aspect: 'reads',
            oracle: '—',
            strategy: '/w/~/x',
          },
        ],
      },
    ]);
    const rows = section.split('\n').filter((line) => line.startsWith('| s1.json'));
    expect(rows).toEqual([
      '| s1.json | c2 | reads | `run_shell_command cat ~/x \\| head` | — | /w/~/x |',
      '| s1.json | c1 | writes | `run_shell_command rm a.py` | /w/a.py | — |',
    ]);
    expect(section).toContain('2 disagreements — mini reads: 1; mini writes: 1.');
  });

  it('#12 says so when the two agree everywhere', () => {
    expect(crossCheckSection([])).toContain('No disagreement in this corpus.');
  });
});
