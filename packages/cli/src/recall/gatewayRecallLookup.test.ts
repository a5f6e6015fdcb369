import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FileTokenStore, RecallArchive, startProxyServer, type ProxyServer } from '@dense/core';
import { runRecall } from '../commands/recall.js';
import { Writable } from 'node:stream';
import { RECALL_EXIT } from './recallExit.js';

const ID = 'r00112233ff';

/** Streams that keep what is written and acknowledge each write (as a real stdout does). */
function captureIO(_cwd: string, env: NodeJS.ProcessEnv) {
  const out = { stdout: '', stderr: '' };
  const sink = (key: 'stdout' | 'stderr') =>
    new Writable({
      write(chunk: Buffer, _encoding, done) {
        out[key] += chunk.toString();
        done();
      },
    });
  return { io: { stdout: sink('stdout'), stderr: sink('stderr'), env }, out };
}
const ORIGINAL = 'the original, as the tool returned it\n'.repeat(20);

describe('dense recall from a gateway (DENSE_PROXY_URL)', () => {
  let dir: string;
  let proxy: ProxyServer;
  let ana: string;
  let bo: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'dense-gateway-recall-'));
    const tokens = new FileTokenStore({ file: path.join(dir, 'tokens.json') });
    ana = (await tokens.create('ana')).token;
    bo = (await tokens.create('bo')).token;
    const archives = new Map<string, RecallArchive>();
    const userRecall = (user: string) => {
      const archive = archives.get(user) ?? new RecallArchive({ dir: path.join(dir, user) });
      archives.set(user, archive);
      return archive;
    };
    await userRecall('ana').put('session:s:1', [{ id: ID, text: ORIGINAL }]);
    proxy = await startProxyServer({
      port: 0,
      tokens,
      userRecall,
      recall: new RecallArchive({ dir: path.join(dir, 'own') }),
    });
  });
  afterAll(async () => {
    await proxy.close();
    await rm(dir, { recursive: true, force: true });
  });

  it("#36.3 prints the original from the user's own archive on the gateway", async () => {
    const { io, out } = captureIO('/', { DENSE_PROXY_URL: proxy.url, DENSE_TOKEN: ana });
    expect(await runRecall(ID, io)).toBe(RECALL_EXIT.found);
    expect(out.stdout).toBe(ORIGINAL);
  });

  it("#36.3 #36.4 another user's token: the id is unknown", async () => {
    const { io, out } = captureIO('/', { DENSE_PROXY_URL: proxy.url, DENSE_TOKEN: bo });
    expect(await runRecall(ID, io)).toBe(RECALL_EXIT.unknown);
    expect(out.stderr).toContain('unknown');
  });

  it('#36.3 the token in the base URL works too; a gateway that does not answer is a clear error', async () => {
    const { io, out } = captureIO('/', { DENSE_PROXY_URL: `${proxy.url}/t/${ana}` });
    expect(await runRecall(ID, io)).toBe(RECALL_EXIT.found);
    expect(out.stdout).toBe(ORIGINAL);
    const down = captureIO('/', { DENSE_PROXY_URL: 'http://127.0.0.1:9', DENSE_TOKEN: ana });
    expect(await runRecall(ID, down.io)).toBe(RECALL_EXIT.unreadable);
    expect(down.out.stderr).toContain('did not answer');
  });
});
