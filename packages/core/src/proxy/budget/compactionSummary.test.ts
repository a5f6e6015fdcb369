import { describe, expect, it } from 'vitest';
import { ai, human, readFile, toolRoundTrip } from '../../test-utils/historyBuilders.js';
import { compactionSummary } from './compactionSummary.js';

/** A synthetic 200-line module whose declarations sit deep inside it. */
function moduleText(): string {
  const lines = Array.from({ length: 200 }, (_, i) => `  step(${i});`);
  lines[119] = 'export function reconcileShipments(batch: Batch): Report {';
  lines[159] = 'export class ShipmentCursor {';
  return lines.map((line, i) => `${String(i + 1).padStart(6)}→${line}`).join('\n');
}

function summarize(removed: ReturnType<typeof human>[]) {
  return compactionSummary({
    removed,
    history: removed,
    removedRaw: JSON.stringify(removed),
    budgetChars: 8_000,
    purpose: 'working-budget',
  });
}

describe('compactionSummary: specifics of condensed outputs', () => {
  it('#24.1 the summary keeps the symbols a condensed file read defines, with their lines', () => {
    const removed = [
      human('Fix the shipment report.'),
      ...readFile('c1', '/w/src/shipments.ts', moduleText()),
      ai('I will change reconcile next.'),
    ];
    const { text } = summarize(removed);
    expect(text).toContain('/w/src/shipments.ts');
    expect(text).toContain('reconcileShipments:120');
    expect(text).toContain('ShipmentCursor:160');
    // The output itself stays out: the summary is far shorter than the read.
    expect(text.length).toBeLessThan(moduleText().length / 4);
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
    const { text } = summarize(removed);
    expect(text).toContain('FAIL src/cursor.test.ts > ShipmentCursor > resumes after a gap');
    expect(text).toContain('AssertionError: expected 4812 to be 4813');
  });
});
