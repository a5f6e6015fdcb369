import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { toolCallsById, type IContent } from '../../services/history/IContent.js';
import { human, toolRoundTrip } from '../../test-utils/historyBuilders.js';
import {
  LISTED_HEADING,
  LISTING_CHARS,
  LISTING_NAMES_EXAMINED,
  listedNames,
  nameOfLine,
} from './listedNames.js';

const nothingShown = () => false;

/** `listedNames` of `removed`, with their own calls (as the summary hands them over). */
const listed = (removed: readonly IContent[], chars: number, isShown: (name: string) => boolean) =>
  listedNames(removed, toolCallsById(removed), chars, isShown);

describe('nameOfLine', () => {
  it('#33 reads a name from plain, long-format, tree and recursive listings', () => {
    expect(nameOfLine('ledgerModule.ts')).toBe('ledgerModule.ts');
    expect(nameOfLine('./src/api/routes.ts')).toBe('./src/api/routes.ts');
    expect(nameOfLine('components/')).toBe('components/');
    expect(nameOfLine('-rw-r--r--  1 dev dev  4821 Mar  3 10:12 Invoices.tsx')).toBe(
      'Invoices.tsx',
    );
    expect(nameOfLine('lrwxrwxrwx  1 dev dev    11 Mar  3 10:12 current -> releases/7')).toBe(
      'current',
    );
    expect(nameOfLine('│   ├── Payments.tsx')).toBe('Payments.tsx');
    expect(nameOfLine('src/modules:')).toBe('src/modules');
  });

  it('#33 leaves out what is not a name: totals, separators, code another command printed', () => {
    expect(nameOfLine('total 48')).toBeUndefined();
    expect(nameOfLine('---')).toBeUndefined();
    expect(nameOfLine("import { useState } from 'react';")).toBeUndefined();
    expect(nameOfLine('});')).toBeUndefined();
    expect(nameOfLine('12345')).toBeUndefined();
  });
});

describe('listedNames', () => {
  const listing = (id: string, command: string, names: readonly string[]) =>
    toolRoundTrip(id, 'run_shell_command', { command }, names.join('\n'));

  it('#33 names what the listings of the removed turns showed, newest listing first, each name once', () => {
    const removed = [
      human('Map the project.'),
      ...listing('c1', 'ls src/modules', ['Invoices.tsx', 'Payments.tsx']),
      ...toolRoundTrip('c2', 'run_shell_command', { command: 'cat notes.txt' }, 'Refunds.tsx'),
      ...listing('c3', 'cd web && ls -la src', ['modules/', 'Payments.tsx', 'App.tsx']),
      ...toolRoundTrip('c4', 'glob', { pattern: 'server/**/*.js' }, 'server/db.js\nserver/app.js'),
    ];
    const text = listed(removed, 2_000, nothingShown);
    const lines = text.split('\n');
    expect(lines[0]).toBe(LISTED_HEADING);
    expect(lines.slice(1)).toEqual([
      '- `server/**/*.js`: server/db.js server/app.js',
      '- `cd web && ls -la src`: modules/ Payments.tsx App.tsx',
      '- `ls src/modules`: Invoices.tsx',
    ]);
    // A command that does not list (cat) gives no names.
    expect(text).not.toContain('Refunds.tsx');
  });

  it("#33 reads Codex's listing (`rg --files` in its shell tool) like any other", () => {
    const removed = toolRoundTrip(
      'c1',
      'exec_command',
      { command: 'rg --files src/app' },
      'src/app/page.tsx\nsrc/app/layout.tsx',
    );
    expect(listed(removed, 1_000, nothingShown)).toContain(
      '- `rg --files src/app`: src/app/page.tsx src/app/layout.tsx',
    );
  });

  it('#33 leaves out names the summary already shows, and says how many a long listing had past its room', () => {
    const many = Array.from({ length: 300 }, (_, i) => `src/generated/file${i}.ts`);
    const removed = [
      ...listing('c1', 'ls src', ['Shown.ts', 'Hidden.ts']),
      ...listing('c2', 'find src/generated', many),
    ];
    const text = listed(removed, 4_000, (name) => name === 'Shown.ts');
    expect(text).toContain('- `ls src`: Hidden.ts');
    expect(text).not.toContain('Shown.ts');
    const findLine = text.split('\n').find((line) => line.includes('find src/generated')) ?? '';
    expect(findLine.length).toBeLessThanOrEqual(LISTING_CHARS + 20);
    expect(findLine).toMatch(/\(\+\d+ more\)$/);
  });

  it('#33 a listing of a whole tree is looked at only as far as its room and a bounded share, the rest counted', () => {
    const names = Array.from({ length: 100_000 }, (_, i) => `src/deep/tree/file${i}.ts`);
    let asked = 0;
    const text = listed(listing('c1', 'find src', names), 4_000, () => {
      asked++;
      return false;
    });
    const shownNames = text.split('\n')[1]?.match(/file\d+\.ts/g) ?? [];
    expect(shownNames.length).toBeGreaterThan(10);
    expect(asked).toBeLessThanOrEqual(LISTING_NAMES_EXAMINED);
    expect(text).toContain(`(+${names.length - shownNames.length} more)`);
    // Names the summary shows already are skipped, at most a bounded number of them.
    asked = 0;
    expect(listed(listing('c1', 'find src', names), 4_000, () => ++asked > 0)).toBe('');
    expect(asked).toBe(LISTING_NAMES_EXAMINED);
  });

  it('#33 is empty without a listing, and never longer than its room (property)', () => {
    expect(listed([human('Hello.')], 1_000, nothingShown)).toBe('');
    fc.assert(
      fc.property(
        fc.array(fc.array(fc.stringMatching(/^[A-Za-z][\w.-]{0,30}$/), { maxLength: 60 }), {
          maxLength: 8,
        }),
        fc.integer({ min: 0, max: 3_000 }),
        (listings, chars) => {
          const removed = listings.flatMap((names, i) => listing(`c${i}`, `ls dir${i}`, names));
          expect(listed(removed, chars, nothingShown).length).toBeLessThanOrEqual(chars);
        },
      ),
    );
  });
});
