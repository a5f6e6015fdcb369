import { fc, test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import { parseApplyPatch } from './applyPatch.js';
import { parseExecCode } from './parseExecCode.js';

/** A string literal as the model might write it: plain words, quoted three ways. */
const LITERAL = fc
  .tuple(fc.stringMatching(/^[a-z0-9 ./_-]{0,14}$/), fc.constantFrom('"', "'", '`'))
  .map(([text, quote]) => `${quote}${text}${quote}`);
const PATCH = fc
  .stringMatching(/^[a-z]{1,6}\.ts$/)
  .map((file) =>
    JSON.stringify(`*** Begin Patch\n*** Update File: ${file}\n-a\n+b\n*** End Patch`),
  );
const FRAGMENT = fc.oneof(
  LITERAL,
  PATCH,
  fc.constantFrom(
    'await ',
    'tools',
    '.',
    'exec_command',
    'apply_patch',
    'write_stdin',
    '(',
    ')',
    '{',
    '}',
    '[',
    ']',
    'cmd',
    'tty',
    'shell',
    ':',
    ',',
    ';',
    '\n',
    ' ',
    'const ',
    'let ',
    'r',
    ' = ',
    'text',
    'output',
    'for ',
    'of ',
    'if ',
    '+',
    '${',
    '`',
    '"',
    '\\',
    '//',
    '/*',
    '*/',
    '1',
    'true',
    '...',
    '=>',
    'f',
  ),
);
const SNIPPET = fc.array(FRAGMENT, { maxLength: 30 }).map((parts) => parts.join(''));

/** Programs of the supported forms, so the property also sees understood code. */
const COMMAND = LITERAL.map((cmd) => `await tools.exec_command({cmd: ${cmd}})`);
const APPLY = PATCH.map((patch) => `await tools.apply_patch(${patch})`);
const PROGRAM = fc
  .array(fc.oneof(COMMAND, APPLY, FRAGMENT), { maxLength: 4 })
  .map((parts) => parts.join(';\n'));

/** `value` is written in `code` as it is, or as a JSON string body (its escapes spelled out). */
const literallyIn = (code: string, value: string): boolean =>
  code.includes(value) || code.includes(JSON.stringify(value).slice(1, -1));

describe('parseExecCode properties', () => {
  test.prop([fc.oneof(SNIPPET, PROGRAM, fc.string())], { numRuns: 400 })(
    '#24.3 random exec code never throws and never yields a command or patched file not in the code',
    (code) => {
      const parsed = parseExecCode(code);
      if (parsed.kind === 'opaque') return;
      for (const call of parsed.calls) {
        if (call.tool === 'exec_command') {
          expect(literallyIn(code, String(call.parameters.cmd))).toBe(true);
        } else {
          expect(literallyIn(code, call.patch)).toBe(true);
          for (const file of parseApplyPatch(call.patch)) expect(code).toContain(file.path);
        }
      }
    },
  );
});
