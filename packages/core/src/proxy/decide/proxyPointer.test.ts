import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { shorterInTokens } from '../../core/compression/shorterInTokens.js';
import { densifyRequest } from '../densify/densifyRequest.js';
import { STALE_SPECIFICS_LEAD } from '../../core/compression/recallPointers.js';
import { STALE_SPECIFICS_CHARS } from '../../core/compression/stalePointer.js';
import { PROXY_POINTER_CHARS, proxyPointer } from './proxyPointer.js';
import { scheduleEdits, type ScheduleInput } from './proxySchedule.js';
import { CACHE_RULES } from '../../cache/cacheRules.js';
import { wireCache } from './wireCache.js';
import {
  anthropicBody,
  claudeSession,
  densifyOptions,
  pointedId,
} from '../test-utils/wireRequests.js';

/** A synthetic TypeScript module as Claude Code's Read shows it (`    12→code`). */
const TS_LINES = [
  "import { readFile } from 'node:fs/promises';",
  "import { parseLedger } from '../ledger/parseLedger.js';",
  '',
  'export interface LedgerRow {',
  '  readonly accountId: string;',
  '  readonly amountCents: number;',
  '}',
  '',
  'export const MAX_LEDGER_ROWS = 50_000;',
  '',
  'export async function loadLedgerRows(path: string): Promise<LedgerRow[]> {',
  "  const text = await readFile(path, 'utf8');",
  '  return parseLedger(text).slice(0, MAX_LEDGER_ROWS);',
  '}',
  '',
  'export class LedgerTotals {',
  '  private readonly byAccount = new Map<string, number>();',
  '  addRow(row: LedgerRow): void {',
  '    this.byAccount.set(row.accountId, (this.byAccount.get(row.accountId) ?? 0) + row.amountCents);',
  '  }',
  '}',
  ...Array.from({ length: 30 }, (_, i) => `// padding line ${i}`),
];
const TS_READ = TS_LINES.map((line, i) => `${String(i + 1).padStart(6)}→${line}`).join('\n');

describe('proxyPointer: the specifics of the read it replaces', () => {
  it('#24.10 a stale-read pointer names the error messages the read’s code spells out', () => {
    const source = Array.from({ length: 60 }, (_, n) => `    step_${n}(&ledger)?;`);
    source[20] =
      '    let row = fetch_row(id).map_err(|e| reject("Ledger row is missing: {}", e))?;';
    const original = source.map((line, n) => `${String(n + 1).padStart(6)}→${line}`).join('\n');
    expect(proxyPointer('r0123456789', original)).toContain('"Ledger row is missing: {}"');
  });

  it('#24.9 the pointer for a stale read names what the version read then declared, by name:line', () => {
    const pointer = proxyPointer('r0123456789', TS_READ);
    expect(pointer).toContain('run `dense recall r0123456789` to see the original');
    expect(pointer).toContain(STALE_SPECIFICS_LEAD);
    for (const declared of [
      'LedgerRow:4',
      'MAX_LEDGER_ROWS:9',
      'loadLedgerRows:11',
      'LedgerTotals:16',
      'addRow:18',
    ]) {
      expect(pointer).toContain(declared);
    }
    expect(pointer).toContain('../ledger/parseLedger.js');
    expect(pointer.endsWith(']')).toBe(true);
  });

  it('#24.9 through the proxy: the read an Edit made stale goes out as a pointer holding its declared names', () => {
    const body = anthropicBody(claudeSession(2, { readContent: TS_READ }));
    const sent = densifyRequest(densifyOptions(body)).body.toString();
    const id = pointedId(sent) ?? '';
    expect(sent).toContain(JSON.stringify(proxyPointer(id, TS_READ)));
    expect(sent).toContain('loadLedgerRows:11');
    expect(sent).not.toContain('readFile(path');
  });

  it('#33 #35 through the proxy: a shell read of a range names its declarations at their lines in the file', () => {
    const plain = TS_LINES.join('\n');
    const body = anthropicBody(
      claudeSession(2, {
        readContent: plain,
        readCall: { name: 'Bash', input: { command: "sed -n '240,300p' /w/a.ts" } },
      }),
    );
    const sent = densifyRequest(densifyOptions(body)).body.toString();
    const id = pointedId(sent) ?? '';
    expect(id).not.toBe('');
    // LedgerRow is the module's 4th line: line 243 of the file.
    expect(sent).toContain('LedgerRow:243');
    expect(sent).toContain('loadLedgerRows:250');
    expect(sent).not.toContain('readFile(path');
  });

  it('#24.9 the pointer is identical for the same result, request after request', () => {
    const body = anthropicBody(claudeSession(2, { readContent: TS_READ }));
    const a = densifyRequest(densifyOptions(body)).body;
    const b = densifyRequest(densifyOptions(body)).body;
    expect(a.equals(b)).toBe(true);
  });

  it('#24.9 a read with nothing to name, or too short to gain, gets the bare pointer', () => {
    expect(proxyPointer('r0123456789', 'just some prose\nwith no names')).toBe(
      proxyPointer('r0123456789'),
    );
    expect(proxyPointer('r0123456789', '1→export const shortName = 1;')).toBe(
      proxyPointer('r0123456789'),
    );
  });

  const LINE = fc.oneof(
    fc.constantFrom(
      'export function ',
      'class ',
      '  async ',
      'const ',
      "import x from './",
      'def ',
    ),
    fc.stringMatching(/^[A-Za-z_][\w]{0,30}$/),
    fc.constantFrom('(', ') {', ' = 1;', '/', '.ts', "'", '\n', '→', '\t'),
  );

  test.prop(
    [
      fc.array(
        fc.array(LINE, { maxLength: 12 }).map((p) => p.join('')),
        { maxLength: 300 },
      ),
    ],
    {
      numRuns: 200,
    },
  )(
    '#24.9 #34.5 the pointer stays within its budget, shorter in tokens than the original when it names anything',
    (lines) => {
      const original = lines.map((line, i) => `${i + 1}→${line}`).join('\n');
      const pointer = proxyPointer('r0123456789', original);
      expect(pointer.length).toBeLessThanOrEqual(
        PROXY_POINTER_CHARS + STALE_SPECIFICS_LEAD.length + STALE_SPECIFICS_CHARS,
      );
      if (pointer !== proxyPointer('r0123456789'))
        expect(shorterInTokens(pointer, original)).toBe(true);
      expect(proxyPointer('r0123456789', original)).toBe(pointer);
    },
  );
});

describe('scheduleEdits: the savings of a batch', () => {
  it('#24.9 count the pointer each site gets, not the whole span', () => {
    const cache = wireCache({
      leadChars: 0,
      messages: [40_000, 4_000, 40_000, 4_000].map((chars, i) => ({
        chars,
        blocks: 1,
        assistant: i % 2 === 1,
      })),
      breakpointMessages: [3],
      leadBreakpoint: false,
    });
    const input: ScheduleInput = {
      candidates: [{ callId: 'c', messageIndex: 2, blockIndex: 0, start: 0, end: 36_000 }],
      messageCount: 4,
      totalChars: 88_000,
      cache,
      gapMs: undefined,
      hasPrevious: false,
      rules: CACHE_RULES.anthropic,
      pressureTokens: 1_000_000,
      paybackCalls: 15,
      riskBudget: undefined,
    };
    const bare = scheduleEdits(input);
    const pointed = scheduleEdits({ ...input, pointerChars: () => 4_000 });
    expect(bare.removedTokens).toBeGreaterThan(0);
    expect(pointed.removedTokens).toBe(bare.removedTokens - 1_000);
  });
});
