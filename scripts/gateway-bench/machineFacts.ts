/** What the bench records of the machine it ran on: load, CPU model, cores. */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import os from 'node:os';

export function loadAverage(): string {
  return readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
}

export function cpuModel(): string {
  const info = readFileSync('/proc/cpuinfo', 'utf8');
  return /^model name\s*:\s*(.+)$/m.exec(info)?.[1]?.trim() ?? os.cpus()[0]?.model ?? 'unknown CPU';
}

export function nproc(): number {
  try {
    return Number(execFileSync('nproc', { encoding: 'utf8' }).trim());
  } catch {
    return os.availableParallelism();
  }
}
