/**
 * What tests that run real programs from Debian's packages on loopback share: installing a package
 * with apt-get when its binary is missing (only as root; otherwise the reason it cannot run), a
 * free loopback port, waiting for a port to listen, and headless Chromium's launch settings.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import net from 'node:net';

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

/** Resolves once something listens on `port` of 127.0.0.1; rejects after `timeoutMs`. */
export function waitForPort(port: number, timeoutMs: number, what = 'nothing'): Promise<void> {
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
        if (Date.now() > deadline) reject(new Error(`${what} listens on port ${port}`));
        else setTimeout(attempt, 20);
      });
    };
    attempt();
  });
}

export const CHROMIUM = '/usr/bin/chromium';

/** Headless, no sandbox (root), and none of the background connections a closed network refuses. */
export const CHROMIUM_FLAGS: readonly string[] = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export const ensureChromium = (): string | undefined => ensureDebianPackage(CHROMIUM, 'chromium');
