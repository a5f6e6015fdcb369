import { fc, test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import { densifyRequest } from '../densify/densifyRequest.js';
import { densifyOptions, FILE_TEXT, POINTER_TEXT } from '../test-utils/wireRequests.js';

type Json = Record<string, unknown>;

const FILE = fc.constantFrom('a.ts', 'b.ts');
type Op =
  | { readonly kind: 'cat'; readonly file: string; readonly understood: boolean }
  | {
      readonly kind: 'patch';
      readonly file: string;
      readonly ok: boolean;
      readonly understood: boolean;
    };
const OP: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant('cat' as const), file: FILE, understood: fc.boolean() }),
  fc.record({
    kind: fc.constant('patch' as const),
    file: FILE,
    ok: fc.boolean(),
    understood: fc.boolean(),
  }),
);

function code(op: Op): string {
  if (op.kind === 'cat') {
    return op.understood
      ? `text((await tools.exec_command({cmd: "cat ${op.file}"})).output)`
      : `for (const f of ["${op.file}"]) text((await tools.exec_command({cmd: "cat " + f})).output)`;
  }
  const patch = JSON.stringify(
    `*** Begin Patch\n*** Update File: ${op.file}\n-a\n+b\n*** End Patch`,
  );
  return op.understood
    ? `await tools.apply_patch(${patch})`
    : `try { await tools.apply_patch(${patch}) } catch (e) { text(String(e)) }`;
}

function output(op: Op, index: number): unknown {
  const status = op.kind === 'patch' && !op.ok && op.understood ? 'failed' : 'completed';
  const header = { type: 'input_text', text: `Script ${status}\nWall time 0.1 seconds\nOutput:\n` };
  const shown =
    op.kind === 'cat' ? `${FILE_TEXT}\n// ${op.file} ${index}` : op.ok ? '' : 'Script error:\nx';
  return shown === '' ? header.text : [header, { type: 'input_text', text: shown }];
}

function body(ops: readonly Op[]): string {
  const input: Json[] = [
    { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'go' }] },
  ];
  ops.forEach((op, index) => {
    const id = `call_${index}`;
    input.push({ type: 'custom_tool_call', call_id: id, name: 'exec', input: code(op) });
    input.push({ type: 'custom_tool_call_output', call_id: id, output: output(op, index) });
  });
  return JSON.stringify({ model: 'gpt-test', input, stream: true });
}

/** The oracle: an understood cat whose file a later understood, successful patch changed. */
function stale(ops: readonly Op[], index: number): boolean {
  const op = ops[index];
  if (op?.kind !== 'cat' || !op.understood) return false;
  return ops
    .slice(index + 1)
    .some(
      (later) => later.kind === 'patch' && later.understood && later.ok && later.file === op.file,
    );
}

describe('densifyRequest on Codex exec calls (property)', () => {
  test.prop([fc.array(OP, { minLength: 1, maxLength: 8 })], { numRuns: 150 })(
    '#24.3 exactly the stale understood cats become the pointer; code not understood and the newest output never do',
    (ops) => {
      const text = body(ops);
      const result = densifyRequest(
        // Pointers only: a cat repeating an earlier one's lines would go out as a repeated-lines reply.
        densifyOptions(text, {
          api: 'openai-responses',
          sessionId: undefined,
          repeatedLinesReplies: false,
        }),
      );
      const sent = JSON.parse(result.body.toString()) as { input: Json[] };
      const outputs = sent.input.filter((item) => item.type === 'custom_tool_call_output');
      outputs.forEach((item, index) => {
        const pointed =
          typeof item.output === 'string' &&
          new RegExp(`^${POINTER_TEXT.source}$`).test(item.output);
        expect(pointed).toBe(stale(ops, index));
        if (index === outputs.length - 1) expect(pointed).toBe(false);
        if (!pointed) expect(item.output).toEqual(output(ops[index] as Op, index));
      });
    },
  );
});
