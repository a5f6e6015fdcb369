import { describe, expect, it } from 'vitest';
import { fc, test } from '@fast-check/vitest';
import { outputSpecifics, rankedSpecifics } from './outputSpecifics.js';

const READ = [
  '     1→export class InvoiceLedger {',
  '     2→  settleInvoice(id: string) {',
  '     3→    return this.pendingTotals.get(id);',
  '     4→  }',
  '     5→}',
].join('\n');

const TEST_RUN = [
  ' ✓ src/ledger.test.ts > keeps totals',
  ' × src/ledger.test.ts > settles twice',
  "   TypeError: Cannot read properties of undefined (reading 'amountDue')",
  '    at settleInvoice (src/ledger.ts:41:12)',
  'Tests  1 failed | 1 passed (2)',
  'Duration  18342ms',
].join('\n');

describe('outputSpecifics', () => {
  it('#24.1 a file read keeps its outline (name:line) first, then the names it uses', () => {
    const text = outputSpecifics({ kind: 'read', text: READ, shown: '', budgetChars: 200 });
    expect(text).toBe('InvoiceLedger:1 settleInvoice:2 pendingTotals');
  });

  it('#24.1 a read of notes or code keeps the paths and modules it mentions', () => {
    const notes = [
      '     1→# Sources',
      '     2→- drafts live in notes-archive/spring-posts',
      "     3→import { db } from '@/lib/store';",
    ].join('\n');
    const text = outputSpecifics({ kind: 'read', text: notes, shown: '', budgetChars: 200 });
    expect(text).toContain('notes-archive/spring-posts');
    expect(text).toContain('@/lib/store');
  });

  it('#24.1 command output keeps its error lines, paths and names', () => {
    const text = outputSpecifics({ kind: 'shell', text: TEST_RUN, shown: '', budgetChars: 400 });
    expect(text).toContain('"× src/ledger.test.ts > settles twice"');
    expect(text).toContain("TypeError: Cannot read properties of undefined (reading 'amountDue')");
    expect(text).toContain('src/ledger.ts:41');
    expect(text).toContain('settleInvoice');
  });

  it('#36 an output block is ranked once: a later compaction of its region reuses the ranking, and what it shows and mentions is applied anew', () => {
    const source = {};
    const first = rankedSpecifics({
      kind: 'shell',
      text: 'src/a.ts loadLedger',
      shown: '',
      source,
    });
    expect(first).toEqual(['src/a.ts', 'loadLedger']);
    // The same block (immutable): its text is not read again.
    const again = rankedSpecifics({ kind: 'shell', text: 'other.ts', shown: 'src/a.ts', source });
    expect(again).toEqual(['loadLedger']);
    // Another kind of the same block, or no block, is ranked from its text.
    expect(rankedSpecifics({ kind: 'read', text: 'other.ts', shown: '', source })).toEqual([
      'other.ts',
    ]);
    expect(rankedSpecifics({ kind: 'shell', text: 'other.ts', shown: '' })).toEqual(['other.ts']);
  });

  it('#24.1 what the summary line already shows is not repeated', () => {
    const shown = '[read_file src/ledger.ts — success, 5 lines]';
    const text = outputSpecifics({
      kind: 'shell',
      text: 'see src/ledger.ts',
      shown,
      budgetChars: 200,
    });
    expect(text).toBe('');
  });

  it('#24.10 a read keeps the error messages its code spells out', () => {
    const source = [
      '     1→pub fn store(entry: &Entry) -> Result<(), StoreError> {',
      '     2→    db.insert(entry).map_err(|e| log_failure("Failed to store ledger entry: {}", e))?;',
      "     3→    let label = 'plain label text';",
      '     4→    Ok(())',
      '     5→}',
    ].join('\n');
    const text = outputSpecifics({ kind: 'read', text: source, shown: '', budgetChars: 300 });
    expect(text).toContain('"Failed to store ledger entry: {}"');
    expect(text).not.toContain('plain label text');
  });

  it('#24.10 names the agent mentioned after the output come first within the budget', () => {
    const names = Array.from({ length: 80 }, (_, i) => `ledgerField${i}`);
    const output = `${names.join(' ')}\n${names.join(' ')}\nrarelySeenCursor`;
    const mentioned = (token: string) => token === 'rarelySeenCursor';
    const budgetChars = 200;
    const plain = outputSpecifics({ kind: 'other', text: output, shown: '', budgetChars });
    expect(plain).not.toContain('rarelySeenCursor');
    const ranked = outputSpecifics({
      kind: 'other',
      text: output,
      shown: '',
      budgetChars,
      mentioned,
    });
    expect(ranked.startsWith('rarelySeenCursor ')).toBe(true);
    expect(ranked.length).toBeLessThanOrEqual(budgetChars);
  });

  test.prop([
    fc.constantFrom('read', 'shell', 'search', 'other', 'write', 'read-many'),
    fc.array(fc.constantFrom(READ, TEST_RUN, 'fooBar baz_qux 12345', 'src/a/b.ts:7', '\n'), {
      maxLength: 8,
    }),
    fc.integer({ min: -5, max: 300 }),
  ])('#24.1 the kept specifics never exceed the budget', (kind, parts, budgetChars) => {
    const text = outputSpecifics({ kind, text: parts.join('\n'), shown: '', budgetChars });
    expect(text.length).toBeLessThanOrEqual(Math.max(0, budgetChars));
    expect(text).not.toContain('\n');
  });
});
