/** `dense replay` in tests: a temp folder of recordings, and a run with its output captured. */
import { mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { replayCommand } from '../commands/replay.js';
import { main } from '../main.js';
import { captureIO } from './captureIO.js';

/** A fresh temp folder named `prefix…` holding `files` (file name → text). */
export async function recordingsDir(
  prefix: string,
  files: Readonly<Record<string, string>>,
): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), prefix));
  for (const [name, text] of Object.entries(files)) await writeFile(path.join(dir, name), text);
  return dir;
}

/** `dense ARGV` with only the replay subcommand, `cwd` as the working directory. */
export async function runReplay(cwd: string, argv: readonly string[]) {
  const { io, out } = captureIO(cwd);
  const code = await main({ argv: [...argv], io, subcommands: [replayCommand] });
  return { code, ...out };
}
