import { describe, expect, it } from 'vitest';
import { printedFirstLine } from './printedFirstLine.js';

describe('printedFirstLine', () => {
  it('#33 a whole-file print starts at line 1', () => {
    expect(printedFirstLine('cat src/app.ts')).toBe(1);
    expect(printedFirstLine('cd web && nl -ba src/app.ts')).toBe(1);
    expect(printedFirstLine('head -n 80 src/app.ts')).toBe(1);
    expect(printedFirstLine("sed -n '1,200p' src/app.ts")).toBe(1);
  });

  it('#33 a range starts where the command says', () => {
    expect(printedFirstLine("sed -n '240,420p' src/app.ts")).toBe(240);
    expect(printedFirstLine('sed -n 17p src/app.ts')).toBe(17);
    expect(printedFirstLine('tail -n +300 src/app.ts')).toBe(300);
  });

  it('#33 unknown starts and anything but a read of one file give undefined', () => {
    expect(printedFirstLine('tail -n 40 src/app.ts')).toBeUndefined();
    expect(printedFirstLine('cat a.ts b.ts')).toBeUndefined();
    expect(printedFirstLine('npm test')).toBeUndefined();
    expect(printedFirstLine('cat src/app.ts && npm test')).toBeUndefined();
    expect(printedFirstLine("sed -i 's/a/b/' src/app.ts")).toBeUndefined();
  });
});
