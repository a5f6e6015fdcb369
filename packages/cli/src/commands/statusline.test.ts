import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { parseCliArgs } from '../args/parseCliArgs.js';
import { CLI_SUBCOMMANDS } from '../args/subcommands.js';
import { main } from '../main.js';
import { captureIO } from '../test-utils/captureIO.js';

describe('dense statusline: the subcommand', () => {
  it('#37.2 `dense statusline` is a subcommand; through main it is silent with no proxy', async () => {
    const parsed = await parseCliArgs(['statusline'], { cwd: '/', subcommands: CLI_SUBCOMMANDS });
    expect(parsed.kind === 'subcommand' && parsed.subcommand.command).toBe('statusline');
    const closed = createServer();
    await new Promise<void>((done) => closed.listen(0, '127.0.0.1', done));
    const { port } = closed.address() as AddressInfo;
    await new Promise((done) => closed.close(done));
    const { io, out } = captureIO('/', { DENSE_PROXY_URL: `http://127.0.0.1:${port}` });
    const stdin = Readable.from(['{"session_id":"s-1"}']) as unknown as NodeJS.ReadStream;
    expect(await main({ argv: ['statusline'], io: { ...io, stdin } })).toBe(0);
    expect(out).toEqual({ stdout: '', stderr: '' });
  });
});
