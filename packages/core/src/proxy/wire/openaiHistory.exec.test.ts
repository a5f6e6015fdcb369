import { describe, expect, it } from 'vitest';
import { densifyRequest } from '../densify/densifyRequest.js';
import {
  densifyOptions,
  FILE_TEXT,
  readOpenAIHistory,
  toolOutputs as outputs,
  WHOLE_POINTER_JSON,
} from '../test-utils/wireRequests.js';

type Json = Record<string, unknown>;

const HEADER = (status: 'completed' | 'failed') =>
  `Script ${status}\nWall time 0.2 seconds\nOutput:\n`;
const PATCH =
  '*** Begin Patch\n*** Update File: a.ts\n@@\n-1\tconst v0 = 0;\n+1\tconst w0 = 0;\n*** End Patch';
const CAT = 'const r = await tools.exec_command({cmd: "cat a.ts"});\ntext(r.output);';
const APPLY = `await tools.apply_patch(${JSON.stringify(PATCH)});`;

/** An `exec` call and its output as Codex 0.169 sends them (text items after a header). */
function exec(id: string, code: string, status: 'completed' | 'failed', shown: string[]): Json[] {
  const parts = [HEADER(status), ...shown].map((text) => ({ type: 'input_text', text }));
  return [
    { type: 'custom_tool_call', id: `ctc_${id}`, call_id: id, name: 'exec', input: code },
    {
      type: 'custom_tool_call_output',
      call_id: id,
      output: shown.length === 0 ? HEADER(status) : parts,
    },
  ];
}

const FAILED_PATCH =
  'Script error:\napply_patch verification failed: Failed to find expected lines';
const steps = {
  cat: exec('c1', CAT, 'completed', [FILE_TEXT]),
  patched: exec('p1', APPLY, 'completed', []),
  patchFailed: exec('p1', APPLY, 'failed', [FAILED_PATCH]),
  catAgain: exec('c2', CAT, 'completed', [`${FILE_TEXT}\n// edited`]),
};

function body(items: readonly Json[]): string {
  const tools = { type: 'additional_tools', role: 'developer', tools: [] };
  const user = {
    type: 'message',
    role: 'user',
    content: [{ type: 'input_text', text: 'fix a.ts' }],
  };
  return JSON.stringify({ model: 'gpt-test', input: [tools, user, ...items], stream: true });
}

function densify(text: string) {
  return densifyRequest(densifyOptions(text, { api: 'openai-responses', sessionId: undefined }));
}

describe('readOpenAIRequest: the Codex exec tool', () => {
  it('#24.3 an exec cat is a shell read, an exec apply_patch a write, a failed script an error', () => {
    const text = body([...steps.cat, ...steps.patchFailed]);
    const wire = readOpenAIHistory(text, 'openai-responses');
    const blocks = wire.history.slice(2).flatMap((entry) => entry.blocks);
    expect(blocks[0]).toMatchObject({
      type: 'tool_call',
      id: 'c1',
      name: 'run_shell_command',
      parameters: { command: 'cat a.ts' },
    });
    expect(blocks[1]).toMatchObject({ type: 'tool_response', callId: 'c1' });
    expect(blocks[1]).not.toHaveProperty('error');
    expect(blocks[2]).toMatchObject({ type: 'tool_call', name: 'write_file' });
    expect(blocks[3]).toMatchObject({ type: 'tool_response', callId: 'p1' });
    expect(blocks[3]?.type === 'tool_response' && blocks[3].error).toContain('Script failed');
    expect(wire.sites.map((site) => site.callId)).toEqual(['c1', 'p1']);
  });

  it('#24.3 code it does not understand is one exec call that touches no file', () => {
    const text = body(
      exec('x1', 'for (const f of ["a.ts"]) await tools.apply_patch(f)', 'completed', []),
    );
    const wire = readOpenAIHistory(text, 'openai-responses');
    expect(wire.history[2]?.blocks).toMatchObject([{ type: 'tool_call', name: 'exec' }]);
  });
});

describe('densifyRequest: Codex exec (cat, apply_patch, cat)', () => {
  it('#24.3 after a successful apply_patch the stale cat is the pointer; the newest cat is intact', () => {
    const text = body([...steps.cat, ...steps.patched, ...steps.catAgain]);
    const result = densify(text);
    const sent = outputs(result.body.toString());
    expect(result.pointers).toBe(1);
    expect(sent.get('c1')).toMatch(WHOLE_POINTER_JSON);
    expect(sent.get('c2')).toContain('// edited');
  });

  it('#24.3 after a failed apply_patch the cat goes out intact, byte for byte', () => {
    const text = body([...steps.cat, ...steps.patchFailed, ...steps.catAgain]);
    expect(densify(text)).toMatchObject({ pointers: 0 });
    expect(densify(text).body.toString()).toBe(text);
  });

  it('#24.3 a cat inside code it does not understand is never the pointer', () => {
    const loopCat =
      'for (const f of ["a.ts"]) text((await tools.exec_command({cmd: "cat " + f})).output)';
    const twoCats =
      'text((await tools.exec_command({cmd: "cat a.ts"})).output); text((await tools.exec_command({cmd: "cat b.ts"})).output)';
    for (const code of [loopCat, twoCats]) {
      const text = body([...exec('c1', code, 'completed', [FILE_TEXT]), ...steps.patched]);
      expect(densify(text).body.toString()).toBe(text);
    }
  });

  it('#24.3 a sed -i inside exec makes the cat stale only when its exit code 0 is shown', () => {
    const sed = 'sed -i s/v0/w0/ a.ts';
    const hidden = exec(
      's1',
      `text((await tools.exec_command({cmd: "${sed}"})).output)`,
      'completed',
      [''],
    );
    const shown = (code: number) =>
      exec('s1', `text(await tools.exec_command({cmd: "${sed}"}))`, 'completed', [
        JSON.stringify({ wall_time_seconds: 0.1, exit_code: code, output: '' }),
      ]);
    const unknown = body([...steps.cat, ...hidden, ...steps.catAgain]);
    expect(densify(unknown).body.toString()).toBe(unknown);
    const failed = body([...steps.cat, ...shown(2), ...steps.catAgain]);
    expect(densify(failed).body.toString()).toBe(failed);
    const applied = body([...steps.cat, ...shown(0), ...steps.catAgain]);
    expect(outputs(densify(applied).body.toString()).get('c1')).toMatch(WHOLE_POINTER_JSON);
  });
});
