import { describe, expect, it } from 'vitest';
import type { IContent } from '../../services/history/IContent.js';
import { ai, human, readFile, toolRoundTrip } from '../../test-utils/historyBuilders.js';
import { compactionSummary } from './compactionSummary.js';
import { workingBudgetSummary } from '../test-utils/workingBudgetSummary.js';
import { LISTED_HEADING } from './listedNames.js';
import { RECURRING_HEADING } from './recurringNames.js';

/** A synthetic 200-line module whose declarations sit deep inside it. */
function moduleText(): string {
  const lines = Array.from({ length: 200 }, (_, i) => `  step(${i});`);
  lines[119] = 'export function reconcileShipments(batch: Batch): Report {';
  lines[159] = 'export class ShipmentCursor {';
  return lines.map((line, i) => `${String(i + 1).padStart(6)}→${line}`).join('\n');
}

describe('compactionSummary: specifics of condensed outputs', () => {
  it('#24.1 the summary keeps the symbols a condensed file read defines, with their lines', () => {
    const removed = [
      human('Fix the shipment report.'),
      ...readFile('c1', '/w/src/shipments.ts', moduleText()),
      ai('I will change reconcile next.'),
    ];
    const { text } = workingBudgetSummary(removed, 8_000);
    expect(text).toContain('/w/src/shipments.ts');
    expect(text).toContain('reconcileShipments:120');
    expect(text).toContain('ShipmentCursor:160');
    // The output itself stays out: the summary is far shorter than the read.
    expect(text.length).toBeLessThan(moduleText().length / 4);
  });

  it('#33 a shell read of one file (Codex, shell-only agents) keeps its outline, with the lines the command printed from', () => {
    const unnumbered = moduleText().replace(/^ *\d+→/gm, '');
    const removed = [
      human('Fix the shipment report.'),
      ...toolRoundTrip('c1', 'run_shell_command', { command: 'cat src/shipments.ts' }, unnumbered),
      ...toolRoundTrip(
        'c2',
        'run_shell_command',
        { command: "sed -n '101,200p' src/cursor.ts" },
        unnumbered.split('\n').slice(100).join('\n').replace('ShipmentCursor', 'BatchCursor'),
      ),
      ...toolRoundTrip(
        'c3',
        'run_shell_command',
        { command: 'tail -n 100 src/late.ts' },
        'export class LateCursor {',
      ),
      ai('I will change reconcile next.'),
    ];
    const { text } = workingBudgetSummary(removed, 8_000);
    expect(text).toContain('reconcileShipments:120');
    expect(text).toContain('ShipmentCursor:160');
    expect(text).toContain('BatchCursor:160');
    expect(text).toMatch(/LateCursor(?!:)/);
  });

  it('#24.1 the summary keeps the error line and failing test of a condensed command output', () => {
    const output = [
      'FAIL src/cursor.test.ts > ShipmentCursor > resumes after a gap',
      'AssertionError: expected 4812 to be 4813',
      ...Array.from({ length: 80 }, (_, i) => `  log line ${i}`),
      'Exit code: 1',
    ].join('\n');
    const removed = [
      human('Run the tests.'),
      ...toolRoundTrip('c1', 'run_shell_command', { command: 'npx vitest run' }, output),
      ai('One test fails.'),
    ];
    const { text } = workingBudgetSummary(removed, 8_000);
    expect(text).toContain('FAIL src/cursor.test.ts > ShipmentCursor > resumes after a gap');
    expect(text).toContain('AssertionError: expected 4812 to be 4813');
  });
});

/** `count` report runs of 30 lines each, call ids c1…: newer outputs that crowd the room. */
function reportRuns(count: number) {
  return Array.from({ length: count }, (_, n) =>
    toolRoundTrip(
      `c${n + 1}`,
      'run_shell_command',
      { command: `npm run report ${n}` },
      Array.from({ length: 30 }, (_, i) => `reportLine${n}x${i} totalsFor${n}x${i}`).join('\n'),
    ),
  ).flat();
}

describe('compactionSummary: outputs the agent came back to', () => {
  it('#33 an early listing whose names the agent used after the cut keeps its line and names when newer lines are left out', () => {
    const listing = Array.from({ length: 40 }, (_, i) => `src/modules/ledgerModule${i}.ts`).join(
      '\n',
    );
    const removed = [
      human('Map the modules, then fix every report.'),
      ...toolRoundTrip('c0', 'run_shell_command', { command: 'ls src/modules' }, listing),
      ...reportRuns(120),
    ];
    // After the cut the agent opens a module the listing named.
    const history = [...removed, ai('Next I read src/modules/ledgerModule17.ts.')];
    const summary = (entries: typeof history) =>
      compactionSummary({
        removed,
        history: entries,
        removedRaw: JSON.stringify(removed),
        budgetChars: 12_000,
        purpose: 'working-budget',
      }).text;
    // The turns' lines without the listings section (which names what listings showed anyway).
    const turns = (text: string) => text.split(LISTED_HEADING)[0] ?? '';
    expect(turns(summary(removed))).not.toContain('ledgerModule17');
    const text = summary(history);
    expect(turns(text)).toContain('ls src/modules');
    expect(turns(text)).toContain('ledgerModule17');
    expect(turns(text).length).toBeLessThanOrEqual(12_000 + 200);
  });

  it('#33 the names an early directory listing showed stay in the summary when its line is left out, beside the budget', () => {
    const modules = Array.from({ length: 16 }, (_, i) => `LedgerModule${i}.tsx`);
    const removed = [
      human('Map the modules, then fix every report.'),
      ...toolRoundTrip(
        'c0',
        'run_shell_command',
        { command: 'ls src/modules' },
        modules.join('\n'),
      ),
      ...reportRuns(120),
    ];
    const input = {
      removed,
      history: removed,
      removedRaw: JSON.stringify(removed),
      budgetChars: 12_000,
      purpose: 'working-budget',
    } as const;
    const { text } = compactionSummary(input);
    const [turns = '', listed = ''] = text.split(LISTED_HEADING);
    // The listing's own line gave way to newer ones; its names did not.
    expect(turns).not.toContain('ls src/modules');
    for (const name of modules) expect(listed).toContain(name);
    expect(listed).toContain('- `ls src/modules`:');
    // The rest is laid out as without the section, within the budget; the section beside it.
    expect(turns.length).toBeLessThanOrEqual(12_000 + 2);
    expect(listed.length).toBeLessThanOrEqual(12_000 / 25);
  });
});

/** The summary of `removed` at 12,000 characters, split where the vocabulary section begins. */
function splitAtVocabulary(removed: readonly IContent[]): [string, string] {
  const { text } = compactionSummary({
    removed,
    history: removed,
    removedRaw: JSON.stringify(removed),
    budgetChars: 12_000,
    purpose: 'working-budget',
  });
  const [rest = '', recurring = ''] = text.split(RECURRING_HEADING);
  return [rest, recurring];
}

describe('compactionSummary: the project’s vocabulary', () => {
  it('#33 a table name many early reads showed and the agent used stays in the summary when those reads’ lines give it up, beside the budget', () => {
    // Each read declares many names; the table name is deep in each, after its own declarations.
    const reads = Array.from({ length: 4 }, (_, r) => {
      const declared = Array.from(
        { length: 60 },
        (_, i) => `export function syncStep${r}x${i}(row: LedgerRow${r}) {}`,
      );
      return readFile(
        `r${r}`,
        `src/sync/step${r}.ts`,
        [...declared, 'const TABLE = "be_ledger_totals";'].join('\n'),
      );
    });
    const [rest, recurring] = splitAtVocabulary([
      human('Speed up the sync.'),
      ...reads.flat(),
      ai('The slow part is the be_ledger_totals join.'),
      ...reportRuns(120),
    ]);
    expect(rest).not.toContain('be_ledger_totals');
    expect(recurring).toContain('be_ledger_totals');
    expect(recurring.length).toBeLessThanOrEqual(12_000 / 25);
  });

  it('#33 a name that is only part of a longer one the summary shows is still named', () => {
    const reads = Array.from({ length: 3 }, (_, r) =>
      readFile(
        `r${r}`,
        `src/sync/step${r}.ts`,
        [
          ...Array.from({ length: 60 }, (_, i) => `export function syncStep${r}x${i}() {}`),
          'const rows = ledgerRows();',
        ].join('\n'),
      ),
    );
    const [rest, recurring] = splitAtVocabulary([
      human('Why is ledgerRowsFor slow?'),
      ...reads.flat(),
      ai('ledgerRows is called per account.'),
      ...reportRuns(120),
    ]);
    expect(rest).toContain('ledgerRowsFor');
    expect(recurring.split('\n')[1]?.split(' ')).toContain('ledgerRows');
  });

  it('#33 the vocabulary an earlier Dense answer named (the client kept it in place of its turns) stays through the next compaction', () => {
    const answer = `[Dense summarized the 40 messages of this conversation so far, deterministically (no model call).]\n\n${RECURRING_HEADING}\nbe_ledger_totals ledgerRowsFor`;
    const [, recurring] = splitAtVocabulary([
      human(answer),
      ai('Going on with the sync.'),
      ...reportRuns(120),
    ]);
    expect(recurring).toContain('be_ledger_totals ledgerRowsFor');
  });

  it('#33 a column name the agent wrote into several files early stays in the summary when those writes’ lines give it up', () => {
    const writes = Array.from({ length: 3 }, (_, w) =>
      toolRoundTrip(
        `w${w}`,
        'write_file',
        {
          file_path: `src/reports/report${w}.ts`,
          content: `export const query${w} = sql\`SELECT invoice_net_total FROM invoices\`;`,
        },
        'Successfully wrote the file.',
      ),
    );
    const [rest, recurring] = splitAtVocabulary([
      human('Add the three reports.'),
      ...writes.flat(),
      ...reportRuns(120),
    ]);
    expect(rest).not.toContain('invoice_net_total');
    expect(recurring).toContain('invoice_net_total');
  });
});

describe('compactionSummary: the newest failure', () => {
  it('#33 a failed run (its exit code in its output) keeps its line when newer lines are left out', () => {
    const removed = [
      human('Make the ledger tests pass.'),
      ...toolRoundTrip(
        'c0',
        'run_shell_command',
        { command: 'npm test ledger' },
        'FAIL src/ledger.test.ts\nAssertionError: expected 4812 to be 4813\nExit code: 1',
      ),
      ...reportRuns(120),
    ];
    const text = compactionSummary({
      removed,
      history: removed,
      removedRaw: JSON.stringify(removed),
      budgetChars: 12_000,
      purpose: 'working-budget',
    }).text;
    const turns = text.slice(text.indexOf('The compacted turns'));
    expect(turns).toContain('npm test ledger');
  });
});

describe('compactionSummary: earlier compactions', () => {
  it("#33 a command the summary's turns show with its recall id is not named again in the trail", () => {
    const removed = [
      human('Make the build pass.'),
      ...toolRoundTrip('s1', 'run_shell_command', { command: 'npm run build' }, 'built in 2s'),
      ...toolRoundTrip('s2', 'run_shell_command', { command: 'npm test' }, '12 passed'),
      ai('Both pass.'),
    ];
    const { text } = workingBudgetSummary(removed, 8_000);
    const ids = [...text.matchAll(/recall id (r[0-9a-f]{10})/g)].map((match) => match[1]);
    // Each output is named once, on its turn line; the trail has no commands section left.
    expect(ids.length).toBe(2);
    expect(new Set(ids).size).toBe(2);
    expect(text).not.toContain('Commands (last exit status):');
    expect(text).toMatch(/\[run_shell_command npm test — success[^\n]*; recall id r[0-9a-f]{10}\]/);
  });

  it('#34.3 a summary that covers an earlier Dense summary names the recall id of the turns that one replaced', () => {
    const first = workingBudgetSummary(
      [
        human('Review the dashboard.'),
        ...toolRoundTrip(
          'c1',
          'run_shell_command',
          { command: 'ls src' },
          'providers.tsx\nlayout.tsx',
        ),
        ai('Two files.'),
      ],
      8_000,
    );
    const firstId = /`dense recall (r[0-9a-f]{10}) --grep/.exec(first.text)?.[1];
    expect(firstId).toBeDefined();
    // The client keeps Dense's answer as its history and sends it back as a user message.
    const second = workingBudgetSummary(
      [
        human(`Dense answered this compaction request itself.\n\n${first.text}`),
        human('Now fix the layout.'),
        ...toolRoundTrip('c2', 'run_shell_command', { command: 'cat src/layout.tsx' }, 'export {}'),
        ai('Fixed.'),
      ],
      8_000,
    );
    const header = second.text.split('\n')[0] ?? '';
    expect(header).toContain(`\`dense recall ${firstId}\``);
    expect(second.text).toContain('Review the dashboard.');
    // A summary that covers none names no earlier id.
    expect(first.text.split('\n')[0]).not.toContain('earlier compaction');
  });

  it('#33.2 an earlier Dense summary before the cut (Codex keeps it among its leading items, then drops it) hands on its task list and trail', () => {
    const earlier = compactionSummary({
      removed: [
        human('Review the dashboard.'),
        ...readFile('r1', '/w/src/layout.tsx', 'export function Layout() {}'),
        ai('Read it.'),
      ],
      history: [],
      removedRaw: 'earlier',
      budgetChars: 8_000,
      purpose: 'client-compaction',
      tasks: [{ id: '1', content: 'Fix the hydration warning', status: 'in_progress' }],
    });
    const kept = [human('Review the dashboard.'), human(earlier.text)];
    const removed = [
      ...toolRoundTrip('c2', 'run_shell_command', { command: 'npm run lint' }, 'ok'),
      ai('Lint passes.'),
    ];
    const { text } = compactionSummary({
      removed,
      history: [...kept, ...removed],
      removedRaw: JSON.stringify(removed),
      budgetChars: 8_000,
      purpose: 'client-compaction',
    });
    expect(text).toContain('[>] Fix the hydration warning (id: 1, in_progress)');
    expect(text).toContain('/w/src/layout.tsx');
  });

  it('#34.3 an earlier Dense summary the compaction leaves before its cut is named too (the client may drop it next)', () => {
    const first = workingBudgetSummary([human('Review the dashboard.'), ai('Looking.')], 8_000);
    const firstId = /`dense recall (r[0-9a-f]{10}) --grep/.exec(first.text)?.[1] ?? '';
    const leading = human(`Dense answered this compaction request itself.\n\n${first.text}`);
    const removed = [human('Now fix the layout.'), ai('Fixed.')];
    const kept = [human('Thanks.')];
    const { text } = compactionSummary({
      removed,
      history: [leading, ...removed, ...kept],
      removedRaw: JSON.stringify(removed),
      budgetChars: 8_000,
      purpose: 'client-compaction',
    });
    expect(text.split('\n')[0]).toContain(`\`dense recall ${firstId}\``);
  });
});
