import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RecallArchive } from '@dense/core';
import { DENSE_BIN, ensureBuilt } from '../test-utils/builtBinary.js';
import { recallLookupFor } from './recall.js';
import { createRecallMcpServer } from './recallMcpServer.js';

const TEXT = 'Grüße — ✓ 🎉\r\n\tline two\r\nno newline at the end';
const ID = 'r0123456789';

let home = '';
beforeAll(async () => {
  home = await mkdtemp(path.join(tmpdir(), 'dense-mcp-'));
  await new RecallArchive({ dir: path.join(home, 'recall') }).put('session:S:1', [
    { id: ID, text: TEXT },
  ]);
});
afterAll(() => rm(home, { recursive: true, force: true }));

function textOf(result: Awaited<ReturnType<Client['callTool']>>): string {
  const content = result.content as { type: string; text?: string }[];
  return content.map((part) => part.text ?? '').join('');
}

describe('dense mcp (in process)', () => {
  it('#24.2 lists one tool, recall, whose answer is the exact original', async () => {
    const server = createRecallMcpServer(recallLookupFor({ DENSE_HOME: home }));
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: 'test', version: '0' });
    await client.connect(clientSide);
    const tools = await client.listTools();
    expect(tools.tools.map((tool) => tool.name)).toEqual(['recall']);
    expect(tools.tools[0]?.inputSchema.required).toEqual(['id']);
    const found = await client.callTool({ name: 'recall', arguments: { id: ID } });
    expect(found.isError).not.toBe(true);
    expect(textOf(found)).toBe(TEXT);
    const unknown = await client.callTool({ name: 'recall', arguments: { id: 'rabcdefabcd' } });
    expect(unknown.isError).toBe(true);
    expect(textOf(unknown)).toContain('recall id rabcdefabcd is unknown');
    const malformed = await client.callTool({ name: 'recall', arguments: { id: 'nope' } });
    expect(malformed.isError).toBe(true);
    expect(textOf(malformed)).toContain("'nope' is not a recall id");
    await client.close();
    await server.close();
  });
});

const build = await ensureBuilt();

// A child process over stdio: 2 s a test on a loaded 2-core machine, so its own timeout.
describe.skipIf(build !== undefined)(
  `the built dense binary${build === undefined ? '' : ` (skipped: ${build})`}`,
  { timeout: 30_000 },
  () => {
    const env = (): Record<string, string> => ({ PATH: process.env.PATH ?? '', DENSE_HOME: home });

    it('#24.2 `dense mcp` over stdio answers recall with the SDK client', async () => {
      const transport = new StdioClientTransport({
        command: process.execPath,
        args: [DENSE_BIN, 'mcp'],
        env: env(),
        stderr: 'pipe',
      });
      const client = new Client({ name: 'test', version: '0' });
      await client.connect(transport);
      const found = await client.callTool({ name: 'recall', arguments: { id: ID } });
      expect(textOf(found)).toBe(TEXT);
      await client.close();
    });

    it('#24.2 `dense recall <id>` prints the exact bytes; exit codes 0, 1, 2', async () => {
      const run = (id: string) =>
        new Promise<{ code: number; stdout: Buffer; stderr: string }>((resolve) => {
          execFile(
            process.execPath,
            [DENSE_BIN, 'recall', id],
            { env: env(), encoding: 'buffer' },
            (error, stdout, stderr) =>
              resolve({ code: error ? Number(error.code) : 0, stdout, stderr: stderr.toString() }),
          );
        });
      const found = await run(ID);
      expect(found.code).toBe(0);
      expect(found.stdout.equals(Buffer.from(TEXT, 'utf8'))).toBe(true);
      const unknown = await run('rabcdefabcd');
      expect(unknown).toMatchObject({ code: 1, stdout: Buffer.alloc(0) });
      expect(unknown.stderr).toMatch(/^dense recall: recall id rabcdefabcd is unknown.*\n$/);
      expect((await run('r12')).code).toBe(2);
    });
  },
);
