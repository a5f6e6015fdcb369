/**
 * A real `haproxy` (Debian's package) on a free loopback port in front of loopback backends, for
 * tests of replicas behind a load balancer: HTTP mode, round-robin, not sticky, each HTTP request
 * balanced on its own (`option http-server-close`: the server side connection closes after each
 * reply, so a kept-alive client connection is spread request by request). A request whose backend
 * refuses the connection is retried (`retries 3`) on another backend (`option redispatch 1`: on
 * every retry). Timeouts are long enough for a streamed reply. The per-backend counters are read
 * from haproxy's stats socket. Installs the package with apt-get when it is missing and the
 * process runs as root; otherwise `ensureHaproxy` says why it cannot run.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { ensureDebianPackage, freePort, waitForPort } from '../../test-utils/realServices.js';

export const HAPROXY = '/usr/sbin/haproxy';

export const ensureHaproxy = (): string | undefined => ensureDebianPackage(HAPROXY, 'haproxy');

export interface HaproxyBackend {
  readonly name: string;
  readonly port: number;
}

/** One backend's counters from `show stat`. */
export interface BackendStats {
  /** Requests sent to it, those redispatched elsewhere included. */
  readonly sessions: number;
  /** Replies by class: `2xx`, `5xx` … */
  readonly responses: Readonly<Record<string, number>>;
  /** Retries of a failed connection to it on the same backend. */
  readonly retried: number;
  /** Requests moved from it to another backend. */
  readonly redispatched: number;
}

export interface Haproxy {
  readonly port: number;
  readonly url: string;
  /** The config haproxy runs with (for docs and failure messages). */
  readonly config: string;
  /** Counters per backend name. */
  stats(): Promise<Readonly<Record<string, BackendStats>>>;
  /** Stops haproxy and removes its folder. */
  stop(): Promise<void>;
}

/** The configuration: round-robin, per request, retried and redispatched, SSE-length timeouts. */
export function haproxyConfig(input: {
  readonly port: number;
  readonly socket: string;
  readonly backends: readonly HaproxyBackend[];
}): string {
  const servers = input.backends.map((b) => `  server ${b.name} 127.0.0.1:${b.port}`);
  return [
    'global',
    `  stats socket ${input.socket} mode 600 level admin`,
    '  maxconn 512',
    'defaults',
    '  mode http',
    '  option http-server-close',
    '  retries 3',
    '  option redispatch 1',
    '  timeout connect 500ms',
    '  timeout client 10m',
    '  timeout server 10m',
    '  timeout http-request 60s',
    '  timeout http-keep-alive 60s',
    'frontend gateway',
    `  bind 127.0.0.1:${input.port}`,
    '  default_backend replicas',
    'backend replicas',
    '  balance roundrobin',
    ...servers,
    '',
  ].join('\n');
}

/** One command on the stats socket; its whole answer. */
function socketCommand(socket: string, command: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const connection = net.connect(socket, () => connection.end(`${command}\n`));
    connection.on('data', (chunk: Buffer) => chunks.push(chunk));
    connection.once('error', reject);
    connection.once('close', () => resolve(Buffer.concat(chunks).toString('utf8')));
  });
}

/** `show stat` CSV → counters of the servers of backend `replicas`. */
export function parseServerStats(csv: string): Record<string, BackendStats> {
  const [header = '', ...rows] = csv.split('\n').filter((line) => line.trim() !== '');
  const columns = header.replace(/^# /, '').split(',');
  const stats: Record<string, BackendStats> = {};
  for (const row of rows) {
    const cells = row.split(',');
    const cell = (name: string) => Number(cells[columns.indexOf(name)] || 0);
    const name = cells[1] ?? '';
    if (cells[0] !== 'replicas' || name === 'BACKEND' || name === 'FRONTEND') continue;
    const responses: Record<string, number> = {};
    for (const status of ['1xx', '2xx', '3xx', '4xx', '5xx', 'other'])
      responses[status] = cell(`hrsp_${status}`);
    stats[name] = {
      sessions: cell('stot'),
      responses,
      retried: cell('wretr'),
      redispatched: cell('wredis'),
    };
  }
  return stats;
}

/** Starts haproxy over `backends` (loopback ports) and resolves once it listens. */
export async function startHaproxy(backends: readonly HaproxyBackend[]): Promise<Haproxy> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'dense-haproxy-'));
  const port = await freePort();
  const socket = path.join(dir, 'stats.sock');
  const config = haproxyConfig({ port, socket, backends });
  const file = path.join(dir, 'haproxy.cfg');
  await writeFile(file, config);
  let stderr = '';
  const child: ChildProcess = spawn(HAPROXY, ['-db', '-f', file], {
    cwd: dir,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString('utf8')).slice(-4_000);
  });
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      await new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGKILL');
      });
    }
    await rm(dir, { recursive: true, force: true });
  };
  try {
    await waitForPort(port, 10_000, 'no haproxy');
  } catch (error) {
    await stop();
    throw new Error(`${String(error)}: ${stderr}`);
  }
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    config,
    stats: async () => parseServerStats(await socketCommand(socket, 'show stat')),
    stop,
  };
}
