/**
 * A real `redis-server` (Debian's package) on a free loopback port, in its own temporary folder,
 * for tests. Installs the package with apt-get when it is missing and the process runs as root;
 * otherwise `ensureRedisServer` says why it cannot run. `stop` and `start` again keep the port, so
 * an outage mid-session can be tested.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { ensureDebianPackage, freePort, waitForPort } from '../../test-utils/realServices.js';

export const REDIS_SERVER = '/usr/bin/redis-server';

export const ensureRedisServer = (): string | undefined =>
  ensureDebianPackage(REDIS_SERVER, 'redis-server');

export interface RedisServer {
  readonly port: number;
  readonly url: string;
  /** Stops the server (its data is kept in memory only, so it is gone). */
  stop(): Promise<void>;
  /** Starts it again on the same port. */
  start(): Promise<void>;
  /** Stops it and removes its folder. */
  close(): Promise<void>;
}

/** The working folder of the Redis answering on `port` (RESP `CONFIG GET dir`), or ''. */
function redisDir(port: number): Promise<string> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    let reply = '';
    const done = (value: string) => {
      socket.destroy();
      resolve(value);
    };
    socket.setTimeout(2_000, () => done(''));
    socket.once('error', () => done(''));
    socket.on('data', (chunk: Buffer) => {
      reply += chunk.toString();
      const lines = reply.split('\r\n');
      if (lines.length >= 5) done(lines[4] ?? '');
    });
    socket.write('*3\r\n$6\r\nCONFIG\r\n$3\r\nGET\r\n$3\r\ndir\r\n');
  });
}

export async function startRedisServer(): Promise<RedisServer> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'dense-redis-'));
  let port = await freePort();
  let child: ChildProcess | undefined;
  const spawnOn = async (): Promise<boolean> => {
    child = spawn(
      REDIS_SERVER,
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      { cwd: dir, stdio: 'ignore' },
    );
    await waitForPort(port, 10_000);
    // Another test's server may have taken the port between `freePort` and this one's bind.
    return (await redisDir(port)) === (await realpath(dir));
  };
  const start = async () => {
    for (let attempt = 0; !(await spawnOn()); attempt++) {
      child?.kill('SIGKILL');
      if (attempt === 5) throw new Error(`redis-server could not bind a free port (last ${port})`);
      port = await freePort();
    }
  };
  const stop = async () => {
    const running = child;
    child = undefined;
    if (running?.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      running.once('exit', () => resolve());
      running.kill('SIGKILL');
    });
  };
  await start();
  return {
    get port() {
      return port;
    },
    get url() {
      return `redis://127.0.0.1:${port}`;
    },
    stop,
    start,
    close: async () => {
      await stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
