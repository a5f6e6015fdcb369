import { describe, expect, it } from 'vitest';
import { crossCheckSection } from './benchApart.js';

describe('bench: oracle cross-check section', () => {
  it('#12 counts the disagreements per source and aspect, and quotes no transcript text (paths, commands)', () => {
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
    for (const quoted of ['s1.json', 'rm a.py', '/w/a.py', 'cat ~/x']) {
      expect(section).not.toContain(quoted);
    }
    expect(section).toContain('2 disagreements — mini reads: 1; mini writes: 1.');
  });

  it('#12 says so when the two agree everywhere', () => {
    expect(crossCheckSection([])).toContain('No disagreement in this corpus.');
  });
});
