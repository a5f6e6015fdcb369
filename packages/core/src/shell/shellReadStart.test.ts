import { describe, expect, it } from 'vitest';
import { shellReadStart } from './shellReadStart.js';

const startOf = (command: string) => shellReadStart(command)?.firstLine;

describe('shellReadStart', () => {
  it('#33 a whole-file print starts at line 1', () => {
    expect(startOf('cat src/app.ts')).toBe(1);
    expect(startOf('cd web && nl -ba src/app.ts')).toBe(1);
    expect(startOf('head -n 80 src/app.ts')).toBe(1);
    expect(startOf("sed -n '1,200p' src/app.ts")).toBe(1);
  });

  it('#33 a range starts where the command says; a tail of unknown length has no known start', () => {
    expect(startOf("sed -n '240,420p' src/app.ts")).toBe(240);
    expect(startOf('sed -n 17p src/app.ts')).toBe(17);
    expect(startOf('tail -n +300 src/app.ts')).toBe(300);
    expect(shellReadStart('tail -n 40 src/app.ts')).toEqual({ firstLine: null });
  });

  it('#33 anything but a read of one file is not a shell read', () => {
    for (const command of [
      'cat a.ts b.ts',
      'npm test',
      'cat src/app.ts && npm test',
      "sed -i 's/a/b/' src/app.ts",
      'cat src/app.ts > copy.ts',
    ]) {
      expect(shellReadStart(command)).toBeUndefined();
    }
  });
});
