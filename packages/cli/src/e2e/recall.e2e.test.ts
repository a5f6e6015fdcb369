/**
 * Issue 11, `recall` end to end with the real built binary against the loopback mock server, piped
 * (`dense -p`) and in a pseudo-terminal (node-pty, the interactive ink UI). The scripted model reads
 * a file and edits it — so high-density prunes the stale read to a pointer naming a recall id —
 * then calls `recall` with the id it was shown; the exact original read result reaches the model
 * in the next request, though the file on disk has changed (nothing is re-run).
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startMockServer, type MockReply, type MockServer } from '@dense/core/test-utils';
import { ensureBuilt } from '../test-utils/builtBinary.js';
import { PtyDense, runDensePiped } from '../test-utils/processDrivers.js';

const notBuilt = await ensureBuilt();

/** The file as first read. */
const ORIGINAL = `first line\n${'alpha line\n'.repeat(60)}`;
const RECALL_ID = /recall id (r[0-9a-f]{10})/;
const FINAL_ANSWER = 'The first line used to say: first line.';
const PROMPT = 'read a.txt, change its first line, then tell me what it said before';

interface ChatMessage {
  readonly role?: string;
  readonly content?: unknown;
  readonly tool_call_id?: string;
  readonly tool_calls?: readonly {
    readonly id: string;
    readonly function: { readonly arguments: string };
  }[];
}

/** The conversation of a request (OpenAI wire format). */
const messagesOf = (body: unknown): readonly ChatMessage[] =>
  (body as { readonly messages?: readonly ChatMessage[] }).messages ?? [];

const textOf = (body: unknown): string => JSON.stringify(messagesOf(body));

/** The result the request carries for tool call `callId`, as the model sees it. */
const toolResult = (body: unknown, callId: string): unknown =>
  messagesOf(body).find((m) => m.role === 'tool' && m.tool_call_id === callId)?.content;

/** The parsed arguments of tool call `callId` in the request. */
const callArguments = (body: unknown, callId: string): unknown => {
  const call = messagesOf(body)
    .flatMap((m) => m.tool_calls ?? [])
    .find((c) => c.id === callId);
  return call === undefined ? undefined : JSON.parse(call.function.arguments);
};

/** After the scripted read and edit: recall the id the pointer names, then answer. */
function respond(request: { readonly body: unknown }): MockReply | undefined {
  const text = textOf(request.body);
  if (text.includes('"name":"recall"')) return { kind: 'stream', text: [FINAL_ANSWER] };
  const id = RECALL_ID.exec(text)?.[1];
  if (id === undefined) return undefined;
  return { kind: 'stream', toolCalls: [{ id: 'k1', name: 'recall', arguments: { id } }] };
}

describe.skipIf(notBuilt !== undefined)('#11 recall, end to end (built binary)', () => {
  let base: string;
  let workspace: string;
  let server: MockServer;
  let dense: PtyDense | undefined;

  beforeEach(async () => {
    base = await mkdtemp(path.join(tmpdir(), 'dense-e2e-recall-'));
    workspace = path.join(base, 'ws');
    await mkdir(workspace);
    await writeFile(path.join(workspace, 'a.txt'), ORIGINAL);
    server = await startMockServer({ respond });
    server.enqueue(
      {
        kind: 'stream',
        toolCalls: [{ id: 'r1', name: 'read_file', arguments: { file_path: 'a.txt' } }],
      },
      {
        kind: 'stream',
        toolCalls: [
          {
            id: 'e1',
            name: 'replace',
            arguments: { file_path: 'a.txt', old_string: 'first line', new_string: 'FIRST line' },
          },
        ],
      },
    );
  });

  afterEach(async () => {
    dense?.kill();
    dense = undefined;
    await server.close();
    await rm(base, { recursive: true, force: true });
  });

  const options = () => ({
    args: ['--base-url', server.baseUrlFor('openai'), '--yolo'],
    cwd: workspace,
    env: { DENSE_HOME: path.join(base, 'home'), NO_COLOR: '1' },
  });

  /** What the four requests carried: the read, its pointer, the recall of that id, the original. */
  async function expectRecalled(): Promise<void> {
    expect(await readFile(path.join(workspace, 'a.txt'), 'utf8')).toContain('FIRST line');
    const bodies = server.requests.map((request) => request.body);
    expect(bodies).toHaveLength(4);
    // The read's content was in context until the edit made it stale…
    expect(toolResult(bodies[1], 'r1')).toBe(ORIGINAL);
    // …then the request after the edit carries the pointer with its recall id instead…
    const id = RECALL_ID.exec(String(toolResult(bodies[2], 'r1')))?.[1];
    expect(id).toBeDefined();
    expect(textOf(bodies[2])).not.toContain(JSON.stringify(ORIGINAL).slice(1, -1));
    // …the model recalled that very id, and the exact original came back.
    expect(callArguments(bodies[3], 'k1')).toEqual({ id });
    expect(toolResult(bodies[3], 'k1')).toBe(ORIGINAL);
  }

  it('#11.1 piped: prune, recall by the id the model was shown, the original reaches the model', async () => {
    const result = await runDensePiped({ ...options(), input: `${PROMPT}\n` });
    expect(result).toMatchObject({ code: 0, stdout: `${FINAL_ANSWER}\n` });
    await expectRecalled();
  }, 60_000);

  it('#11.1 in a terminal: prune, recall by the id shown, the exact original reaches the model', async () => {
    dense = new PtyDense(options());
    await dense.waitFor('Ask, or type /help', 0, 60_000);
    const since = dense.mark();
    dense.write(`${PROMPT}\r`);
    // The UI shows each tool ran, the recall after the edit, then the model's answer.
    await dense.waitFor(/✓ read_file a\.txt[\s\S]*✓ replace a\.txt[\s\S]*✓ recall/, since, 60_000);
    const answered = await dense.waitFor(FINAL_ANSWER, since, 60_000);
    await dense.waitFor('Ask, or type /help', since + (answered.index ?? 0), 60_000);
    dense.write('/quit\r');
    expect(await dense.exited).toBe(0);
    await expectRecalled();
  }, 120_000);
});
