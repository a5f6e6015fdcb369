/**
 * A real `redis-server` (Debian's package) on a free loopback port, in its own temporary folder,
 * for tests. Installs the package with apt-get when it is missing and the process runs as root;
 * otherwise `ensureRedisServer` says why it cannot run. `stop` and `start` again keep the port, so
 * an outage mid-session can be tested.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

export const REDIS_SERVER = '/usr/bin/redis-server';

/** Installs `pkg` with apt-get when `binary` is missing; the reason it cannot, or undefined. */
export function ensureDebianPackage(binary: string, pkg: string): string | undefined {
  if (existsSync(binary)) return undefined;
  if (process.getuid?.() !== 0) return `${pkg} is not installed and installing it needs root`;
  const apt = (args: string[]) =>
    spawnSync('apt-get', args, {
      stdio: 'ignore',
      timeout: 600_000,
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    });
  if (apt(['install', '-y', pkg]).status !== 0 && apt(['update']).status !== 0)
    return 'apt-get update failed';
  if (!existsSync(binary) && apt(['install', '-y', pkg]).status !== 0)
    return `apt-get install ${pkg} failed`;
  return existsSync(binary) ? undefined : `apt-get installed no ${binary}`;
}

export const ensureRedisServer = (): string | undefined =>
  ensureDebianPackage(REDIS_SERVER, 'redis-server');

/** A free TCP port on 127.0.0.1 (bound and released). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

function waitForPort(port: number, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  return new Promise((resolve, reject) => {
    const attempt = () => {
      const socket = net.connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve();
      });
      socket.once('error', () => {
        socket.destroy();
        if (Date.now() > deadline) reject(new Error(`nothing listens on port ${port}`));
        else setTimeout(attempt, 20);
      });
    };
    attempt();
  });
}

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
