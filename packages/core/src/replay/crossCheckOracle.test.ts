import { describe, expect, it } from 'vitest';
import { human, readFile, toolRoundTrip } from '../test-utils/historyBuilders.js';
import { crossCheckOracle, STRATEGY_CLASSIFIERS } from './crossCheckOracle.js';

const LOG = 'see\n--- run1.log ---\nstart\n--- Summary ---\nok\n--- End of content ---';

describe('crossCheckOracle', () => {
  it('#12 lists the calls and texts where the oracle and the strategy classify differently', () => {
    const contents = [
      human('go'),
      ...readFile('r1', 'a.py', 'x = 1\n'),
      ...toolRoundTrip('s1', 'run_shell_command', { command: 'rm a.py' }, ''),
      ...toolRoundTrip('s2', 'run_shell_command', { command: 'cat ~/notes.txt' }, 'n\n'),
      ...toolRoundTrip('s3', 'run_shell_command', { command: 'cat b.py' }, 'Exit Code: 2'),
      human(LOG),
    ];
    // A stand-in strategy with the bugs to catch: `~` taken literally, an opener inside a file
    // wins, a failing run taken for a success, `rm` not a change.
    const found = crossCheckOracle(contents, '/w', {
      fileEffect: (call) =>
        call.id === 'r1'
          ? { reads: ['a.py'], writes: [] }
          : call.id === 's2'
            ? { reads: ['~/notes.txt'], writes: [] }
            : undefined,
      failed: () => false,
      inclusions: (text) =>
        text === LOG ? [{ filePath: 'Summary', start: 27, end: LOG.length }] : [],
    });
    expect(found.map((d) => [d.at, d.aspect, d.oracle, d.strategy])).toEqual([
      ['s1', 'writes', '/w/a.py', '—'],
      ['s2', 'reads', '—', '/w/~/notes.txt'],
      ['s3', 'success', 'failed', 'succeeded'],
      ['entry 9', 'inclusions', `run1.log@4-${LOG.length}`, `Summary@27-${LOG.length}`],
    ]);
    expect(found[0]?.subject).toBe('run_shell_command rm a.py');
  });

  it('#12 with the real classifiers, agreeing classifications list nothing', () => {
    const contents = [
      ...readFile('r1', 'a.py', 'x\n'),
      ...toolRoundTrip('s1', 'run_shell_command', { command: 'cat a.py' }, 'x\n'),
      ...toolRoundTrip('w1', 'write_file', { file_path: 'a.py', content: 'y' }, 'ok'),
      ...toolRoundTrip('s2', 'run_shell_command', { command: "sed -i 's/a/b/' a.py" }, ''),
    ];
    expect(crossCheckOracle(contents, '/w', STRATEGY_CLASSIFIERS)).toEqual([]);
  });
});
