import { describe, expect, it } from 'vitest';
import { createDefaultToolRegistry, INCLUSION_CLOSE } from '@dense/core';
import { parseAtReferences } from '../../at/parseAtReferences.js';
import { DEMO_SCRIPT } from './demoScript.js';
import { verbatim } from './scriptBuilders.js';

const calls = DEMO_SCRIPT.flatMap((turn) => turn.steps.flatMap((step) => step.calls));

describe('the demo script', () => {
  it('is a session of 40+ user turns, each ending in a reply', () => {
    expect(DEMO_SCRIPT.length).toBeGreaterThanOrEqual(40);
    for (const turn of DEMO_SCRIPT) expect(turn.reply.trim()).not.toBe('');
  });

  it('calls only tools the default registry has, with parameters their schemas accept', () => {
    const registry = createDefaultToolRegistry();
    for (const call of calls) {
      const tool = registry.get(call.name);
      expect(tool, call.name).toBeDefined();
      expect(tool?.parameters.safeParse(call.args).success, JSON.stringify(call.args)).toBe(true);
    }
  });

  it('reads, edits, writes, re-reads, lists, greps and runs the tests', () => {
    const names = new Set(calls.map((c) => c.name));
    for (const name of [
      'read_file',
      'replace',
      'write_file',
      'run_shell_command',
      'grep',
      'list_directory',
      'glob',
    ]) {
      expect(names).toContain(name);
    }
    const reads = calls.filter((c) => c.name === 'read_file').map((c) => c.args.file_path);
    expect(reads.filter((p) => p === 'src/parse.js').length).toBeGreaterThanOrEqual(3);
    expect(
      calls.filter((c) => c.args.command === 'node test/run.js').length,
    ).toBeGreaterThanOrEqual(10);
  });

  it('has the user @-include the same file twice, written as a reference for the @ processor', () => {
    const references = DEMO_SCRIPT.flatMap((turn) =>
      parseAtReferences(turn.user).map((r) => r.path),
    );
    expect(references).toEqual(['CONTRIBUTING.md', 'CONTRIBUTING.md']);
    for (const turn of DEMO_SCRIPT) expect(turn.user).not.toContain(INCLUSION_CLOSE);
  });

  it('expects exactly the red test runs to fail', () => {
    const failing = calls.filter((c) => c.expectError === true);
    expect(failing.length).toBeGreaterThanOrEqual(3);
    for (const call of failing) expect(call.args.command).toBe('node test/run.js');
  });
});

describe('verbatim', () => {
  it('keeps backslash escapes as written and unescapes only backticks and dollars', () => {
    expect(verbatim`a\nb`).toBe('a\\nb');
    expect(verbatim`\`x\` \${y}`).toBe('`x` ${y}');
    expect(verbatim`${'v'}!`).toBe('v!');
  });
});
