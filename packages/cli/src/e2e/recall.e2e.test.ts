/**
 * Issue 11, `recall` end to end: the real built binary (`dense -p --yolo`) against the loopback
 * mock server. The model reads a file, edits it — so high-density prunes the stale read, leaving a
 * pointer that names a recall id — then calls `recall` with the id it was shown, and the original
 * read result reaches the model in the next request.
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockServer, type MockReply, type MockServer } from '@dense/core/test-utils';
import { ensureBuilt } from '../test-utils/builtBinary.js';
import { runDensePiped } from '../test-utils/processDrivers.js';

const notBuilt = await ensureBuilt();

/** The file as first read: its opening lines are the marker the assertions look for. */
const ORIGINAL = `first line\n${'alpha line\n'.repeat(60)}`;
/** How the start of the original read looks inside a JSON request body. */
const ORIGINAL_IN_JSON = JSON.stringify('first line\nalpha line').slice(1, -1);
const RECALL_ID = /recall id (r[0-9a-f]{10})/;

/** The conversation of a request (OpenAI wire format), without the tool schemas. */
const textOf = (body: unknown): string =>
  JSON.stringify((body as { readonly messages?: unknown }).messages ?? null);

/** After the scripted read and edit: recall the id the pointer names, then answer. */
function respond(request: { readonly body: unknown }): MockReply | undefined {
  const text = textOf(request.body);
  if (text.includes('"name":"recall"')) return { kind: 'stream', text: ['Recalled.'] };
  const id = RECALL_ID.exec(text)?.[1];
  if (id === undefined) return undefined;
  return { kind: 'stream', toolCalls: [{ id: 'k1', name: 'recall', arguments: { id } }] };
}

describe.skipIf(notBuilt !== undefined)('#11 recall, end to end (built binary)', () => {
  let base: string;
  let workspace: string;
  let server: MockServer;

  beforeAll(async () => {
    base = await mkdtemp(path.join(tmpdir(), 'dense-e2e-recall-'));
    workspace = path.join(base, 'ws');
    await mkdir(workspace);
    await writeFile(path.join(workspace, 'a.txt'), ORIGINAL);
    server = await startMockServer({ respond });
  });

  afterAll(async () => {
    await server.close();
    await rm(base, { recursive: true, force: true });
  });

  it('#11.1 prune, recall by the id the model was shown, the original reaches the model', async () => {
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
    const result = await runDensePiped({
      args: ['--base-url', server.baseUrlFor('openai'), '--yolo'],
      cwd: workspace,
      env: { DENSE_HOME: path.join(base, 'home') },
      input: 'read a.txt, change its first line, then look at what it said before\n',
    });
    expect(result).toMatchObject({ code: 0, stdout: 'Recalled.\n' });
    expect(await readFile(path.join(workspace, 'a.txt'), 'utf8')).toContain('FIRST line');

    const bodies = server.requests.map((request) => textOf(request.body));
    expect(bodies).toHaveLength(4);
    // The read's content was in context until the edit made it stale…
    expect(bodies[1]).toContain(ORIGINAL_IN_JSON);
    // …then the request after the edit carries the pointer with its recall id, not the content.
    const id = RECALL_ID.exec(bodies[2] ?? '')?.[1];
    expect(id).toBeDefined();
    expect(bodies[2]).not.toContain(ORIGINAL_IN_JSON);
    // The model's recall call brought the exact original back (nothing was re-run: the file on
    // disk says "FIRST line" now).
    expect(bodies[3]).toContain(ORIGINAL_IN_JSON);
    expect(bodies[3]).toContain(`"name":"recall"`);
    expect(bodies[3]).toContain(id ?? 'no id');
  }, 60_000);
});
