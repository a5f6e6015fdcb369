import { describe, expect, it } from 'vitest';
import { firstErrorLine, firstTellingLine, namesError, outputLines } from './shellOutputLines.js';

describe('#33.3 shell output lines: the line that names an error', () => {
  it('#33.3 plural and singular failure words name an error', () => {
    expect(namesError('2 failures, 5 passed')).toBe(true);
    expect(namesError('test failure in totals')).toBe(true);
    expect(namesError('TypeError: x is undefined')).toBe(true);
    expect(namesError('all 7 passed')).toBe(false);
  });

  it('#33.3 a test runner banner names no error; a banner with a count does', () => {
    expect(namesError('======== FAILURES ========')).toBe(false);
    expect(namesError('________ test_failing_total ________')).toBe(false);
    expect(namesError('---- Captured stderr errors ----')).toBe(false);
    expect(namesError('======== 1 failed, 1 passed in 0.02s ========')).toBe(true);
  });

  it('#33.3 the first error line skips the banners and quotes the assertion under them', () => {
    const pytest = [
      'Exit code: 1',
      '======== FAILURES ========',
      '________ test_failing_total ________',
      '    def test_failing_total():',
      '>       assert total([3, 4]) == 8',
      'E       assert 7 == 8',
    ].join('\n');
    expect(firstErrorLine(pytest)).toBe('> assert total([3, 4]) == 8');
  });

  it('#33.3 the tool framing is no output line', () => {
    expect(outputLines('Exit code: 2\nWall time: 1s\nOutput:\nmissing rule')).toEqual([
      'missing rule',
    ]);
  });

  it("#33.3 a terminal's colour codes are no output, and a box-drawing rule is a banner", () => {
    const launcher = [
      'Exit code 1',
      '\u001b[0;34m' + '═'.repeat(40) + '\u001b[0m',
      '\u001b[0;34m        Agent launcher        \u001b[0m',
      '\u001b[1;33m[1/8] Checking prerequisites...\u001b[0m',
    ].join('\n');
    expect(outputLines(launcher)[0]).toBe('═'.repeat(40));
    expect(firstTellingLine(launcher, 40)).toBe('Agent launcher');
    expect(namesError('──── errors ────')).toBe(false);
  });
});
