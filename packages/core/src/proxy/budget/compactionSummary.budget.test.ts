import { describe, expect, it } from 'vitest';
import type { IContent } from '../../services/history/IContent.js';
import { ai, human, toolRoundTrip } from '../../test-utils/historyBuilders.js';
import { workingBudgetSummary } from '../test-utils/workingBudgetSummary.js';
import { summaryBudgetChars } from './compactWire.js';
import { MAX_WORKING_BUDGET } from './workingBudget.js';

/** A command output naming `count` distinct identifiers of output `n`, each once. */
function namesOutput(n: number, count: number): string {
  return Array.from({ length: count }, (_, i) => `value of ledgerEntry${n}x${i} is set`).join('\n');
}

describe('compactionSummary: room for the condensed outputs’ specifics', () => {
  it('#24.9 under the default working budget the oldest of 30 condensed outputs keeps its line and names', () => {
    const removed: IContent[] = [human('Reconcile the ledger.')];
    for (let n = 0; n < 30; n++) {
      removed.push(
        ...toolRoundTrip(
          `c${n}`,
          'run_shell_command',
          { command: 'npm run ledger' },
          namesOutput(n, 60),
        ),
      );
      removed.push(ai(`Checked batch ${n}.`));
    }
    const { text } = workingBudgetSummary(removed, summaryBudgetChars(MAX_WORKING_BUDGET));
    expect(text).not.toContain('earlier lines left out');
    expect(text).toContain('ledgerEntry0x0');
    expect(text).toContain('ledgerEntry29x0');
  });

  it('#24.9 a condensed output naming many identifiers keeps more than 800 characters of them', () => {
    const removed = [
      human('List the ledger fields.'),
      ...toolRoundTrip(
        'c1',
        'run_shell_command',
        { command: 'npm run fields' },
        namesOutput(7, 100),
      ),
      ai('There are many.'),
    ];
    const { text } = workingBudgetSummary(removed, 40_000);
    // Each name takes 16–17 characters with its separator: the 80th lies past 800 characters.
    expect(text).toContain('ledgerEntry7x80');
  });

  it('#24.10 past the budget, the oldest condensed output keeps its line and its error line instead of being left out', () => {
    const removed: IContent[] = [human('Reconcile the ledger.')];
    for (let n = 0; n < 30; n++) {
      const output = `ledger batch ${n} failed: checksum mismatch in ledgerBatch${n}\n${namesOutput(n, 120)}`;
      removed.push(
        ...toolRoundTrip(
          `c${n}`,
          'run_shell_command',
          { command: `npm run ledger -- ${n}` },
          output,
        ),
      );
      removed.push(ai(`Checked batch ${n}.`));
    }
    const { text } = workingBudgetSummary(removed, 40_000);
    expect(text).not.toContain('earlier lines left out');
    expect(text).toContain('ledger batch 0 failed: checksum mismatch');
    expect(text).toContain('ledgerEntry29x100');
  });

  it('#24.10 a name the agent used after a large output stays beside that output’s line', () => {
    const removed: IContent[] = [
      human('Page through the issues.'),
      ...toolRoundTrip(
        'c1',
        'fetch_docs',
        { topic: 'issues' },
        namesOutput(1, 400) + '\ncursorAfterLast',
      ),
      ai('I will pass cursorAfterLast to the next query.'),
    ];
    for (let n = 2; n < 12; n++) {
      removed.push(
        ...toolRoundTrip(
          `c${n}`,
          'run_shell_command',
          { command: `npm run page -- ${n}` },
          namesOutput(n, 40),
        ),
      );
    }
    const { text } = workingBudgetSummary(removed, 30_000);
    const turns = text.slice(text.indexOf('The compacted turns'));
    const line = turns.split('\n').find((l) => l.includes('fetch_docs')) ?? '';
    expect(line).toContain('cursorAfterLast');
  });
});
