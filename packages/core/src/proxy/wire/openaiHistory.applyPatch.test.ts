import { describe, expect, it } from 'vitest';
import { shellPatchOutcome } from '../../transcripts/applyPatchOutput.js';
import { densifyRequest } from '../densify/densifyRequest.js';
import {
  densifyOptions,
  FILE_TEXT,
  readOpenAIHistory,
  toolOutputs as outputs,
  WHOLE_POINTER_JSON,
} from '../test-utils/wireRequests.js';

type Json = Record<string, unknown>;

/**
 * The output forms of a patch run through Codex 0.169's shell as measured with the real binary
 * (`apply_patch <<'EOF'` inside `exec`, which Codex intercepts and applies itself).
 */
const HEADER = (status: 'completed' | 'failed') =>
  `Script ${status}\nWall time 0.4 seconds\nOutput:\n`;
const SHOWN_OUTPUT =
  'Exit code: 0\nWall time: 0.4 seconds\nOutput:\nSuccess. Updated the following files:\nM a.ts\n';
const SHOWN_RESULT = JSON.stringify({ wall_time_seconds: 0, output: SHOWN_OUTPUT });
const FAILED =
  'Script error:\napply_patch verification failed: Failed to find expected lines in /w/a.ts:\nconst v9';
const PATCH =
  '*** Begin Patch\n*** Update File: a.ts\n@@\n-1\tconst v0 = 0;\n+1\tconst w0 = 0;\n*** End Patch';
const heredoc = (prefix = '') => `${prefix}apply_patch <<'EOF'\n${PATCH}\nEOF`;
const CAT = 'const r = await tools.exec_command({cmd: "cat a.ts"});\ntext(r.output);';

function exec(id: string, code: string, status: 'completed' | 'failed', shown: string[]): Json[] {
  const parts = [HEADER(status), ...shown].map((text) => ({ type: 'input_text', text }));
  return [
    { type: 'custom_tool_call', id: `ctc_${id}`, call_id: id, name: 'exec', input: code },
    { type: 'custom_tool_call_output', call_id: id, output: parts },
  ];
}

const patchOutput = (cmd: string, status: 'completed' | 'failed', shown: string, whole = false) =>
  exec(
    'p1',
    whole
      ? `text(await tools.exec_command({cmd: ${JSON.stringify(cmd)}}));`
      : `const r = await tools.exec_command({cmd: ${JSON.stringify(cmd)}});\ntext(r.output);`,
    status,
    [shown],
  );

function body(items: readonly Json[]): string {
  const user = {
    type: 'message',
    role: 'user',
    content: [{ type: 'input_text', text: 'fix a.ts' }],
  };
  return JSON.stringify({ model: 'gpt-test', input: [user, ...items], stream: true });
}

const session = (patch: Json[]) =>
  body([
    ...exec('c1', CAT, 'completed', [FILE_TEXT]),
    ...patch,
    ...exec('c2', CAT, 'completed', [`${FILE_TEXT}\n// edited`]),
  ]);

const densify = (text: string) =>
  densifyRequest(densifyOptions(text, { api: 'openai-responses', sessionId: undefined }));

describe('#34.5 Codex apply_patch through the shell, in every output form the real binary shows', () => {
  it('#34.5 the outcome is read from the command output and from the whole result object', () => {
    expect(shellPatchOutcome([SHOWN_OUTPUT])).toBe('applied');
    expect(shellPatchOutcome([SHOWN_RESULT])).toBe('applied');
    expect(shellPatchOutcome(['Success. Updated the following files:\nA b.ts\n'])).toBe('applied');
    expect(shellPatchOutcome([SHOWN_OUTPUT.replace('Exit code: 0', 'Exit code: 1')])).toBe(
      'failed',
    );
    expect(
      shellPatchOutcome([JSON.stringify({ exit_code: 1, output: 'error: no such file' })]),
    ).toBe('failed');
    expect(shellPatchOutcome([FAILED])).toBe('unknown');
    expect(shellPatchOutcome([])).toBe('unknown');
  });

  it('#34.5 a successful shell apply_patch is a write (output text or whole result shown), and the stale cat is the pointer', () => {
    for (const patch of [
      patchOutput(heredoc(), 'completed', SHOWN_OUTPUT),
      patchOutput(heredoc(), 'completed', SHOWN_RESULT, true),
      patchOutput(heredoc('cd . && '), 'completed', SHOWN_RESULT, true),
    ]) {
      const text = session(patch);
      const wire = readOpenAIHistory(text, 'openai-responses');
      const write = wire.history
        .flatMap((entry) => entry.blocks)
        .find((b) => b.type === 'tool_call' && b.id === 'p1');
      expect(write).toMatchObject({ name: 'write_file' });
      const response = wire.history
        .flatMap((entry) => entry.blocks)
        .find((b) => b.type === 'tool_response' && b.callId === 'p1');
      expect(response).not.toHaveProperty('error');
      const sent = outputs(densify(text).body.toString());
      expect(sent.get('c1')).toMatch(WHOLE_POINTER_JSON);
      expect(sent.get('c2')).toContain('// edited');
    }
  });

  it('#34.5 `cd <dir> && apply_patch` writes the patch paths under that directory', () => {
    const text = body(patchOutput(heredoc('cd /w/sub && '), 'completed', SHOWN_RESULT, true));
    const wire = readOpenAIHistory(text, 'openai-responses');
    const write = wire.history.flatMap((entry) => entry.blocks).find((b) => b.type === 'tool_call');
    expect(write).toMatchObject({ name: 'write_file', parameters: { file_path: '/w/sub/a.ts' } });
  });

  it('#34.5 a shell apply_patch that failed (script failed, or a non-zero exit code) is no write: the cat goes out intact', () => {
    for (const patch of [
      patchOutput(heredoc(), 'failed', FAILED),
      patchOutput(heredoc(), 'completed', SHOWN_OUTPUT.replace('Exit code: 0', 'Exit code: 1')),
      patchOutput(heredoc(), 'completed', 'Exit code: 0\nWall time: 0.1 seconds\nOutput:\n'),
    ]) {
      const text = session(patch);
      expect(densify(text).body.toString()).toBe(text);
    }
  });

  it('#34.5 a sed -i whose output merely reads like a patch success still needs its exit code', () => {
    const sed = exec(
      's1',
      'text((await tools.exec_command({cmd: "sed -i s/v0/w0/ a.ts"})).output)',
      'completed',
      [SHOWN_OUTPUT],
    );
    const text = session(sed);
    expect(densify(text).body.toString()).toBe(text);
  });
});
