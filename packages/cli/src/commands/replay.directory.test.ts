/** `dense replay <dir>`: what a directory run leaves out is named, and costs the exit code. */
import { mkdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { recordingsDir, runReplay } from '../test-utils/replayCli.js';
import { recording } from '../test-utils/replayFixture.js';

let dir: string;
let outside: string;

beforeEach(async () => {
  dir = await recordingsDir('dense-replay-dir-', { 'session.jsonl': recording() });
  outside = await recordingsDir('dense-replay-outside-', { 'linked.jsonl': recording() });
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
  await rm(outside, { recursive: true, force: true });
});

const run = (...argv: string[]) => runReplay(dir, argv);

/** The base names of the files whose sessions a `--json` run reports. */
function replayedFiles(stdout: string): string[] {
  const { sessions } = JSON.parse(stdout) as { sessions: { file: string }[] };
  return sessions.map((session) => path.basename(session.file));
}

describe('#32.3 dense replay <dir>', () => {
  it('#32.3 a file that fails to import: named with the reason, the rest reported, exit 1', async () => {
    await writeFile(path.join(dir, 'unknown.jsonl'), '{"neither":"format"}\n');
    await writeFile(path.join(dir, 'again.jsonl'), recording());
    const { code, stdout, stderr } = await run('replay', dir, '--strategy', 'none');
    expect(code).toBe(1);
    expect(stderr).toMatch(/^dense replay: skipped .*unknown\.jsonl: \S.*$/m);
    expect(stderr).toMatch(
      /^dense replay: 1 of 3 files in .* were not replayed \(named above\); the figures cover the rest\.$/m,
    );
    expect(stdout).toMatch(/^again\.jsonl\s+dense-session/m);
    expect(stdout).toMatch(/^session\.jsonl\s+dense-session/m);
    expect(stdout).toMatch(/sessions \(compressed\)\s+2 \(0\)/);
  });

  it('#32.3 --json too: the object covers the rest and the exit code is 1', async () => {
    await writeFile(path.join(dir, 'unknown.jsonl'), '{"neither":"format"}\n');
    const { code, stdout } = await run('replay', dir, '--strategy', 'none', '--json');
    expect(code).toBe(1);
    expect(replayedFiles(stdout)).toEqual(['session.jsonl']);
  });

  it('#32.3 a symlink to a file (here one outside the directory) is followed and replayed under its own name', async () => {
    await symlink(path.join(outside, 'linked.jsonl'), path.join(dir, 'link.jsonl'));
    const { code, stdout, stderr } = await run('replay', dir, '--strategy', 'none', '--json');
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(replayedFiles(stdout)).toEqual(['link.jsonl', 'session.jsonl']);
  });

  it('#32.3 a link to a directory and a broken link are named and fail the run; a second path to a file is named and replayed once', async () => {
    await symlink(outside, path.join(dir, 'more'));
    await symlink(path.join(dir, 'gone.jsonl'), path.join(dir, 'broken.jsonl'));
    await symlink(path.join(dir, 'session.jsonl'), path.join(dir, 'twice.jsonl'));
    const { code, stdout, stderr } = await run('replay', dir, '--strategy', 'none', '--json');
    expect(code).toBe(1);
    expect(stderr).toMatch(/^dense replay: skipped .*more: symlink to a directory, not followed/m);
    expect(stderr).toMatch(/^dense replay: skipped .*broken\.jsonl: symlink to nothing readable$/m);
    expect(stderr).toMatch(
      /^dense replay: skipped .*twice\.jsonl: same file as .*session\.jsonl$/m,
    );
    expect(stderr).toMatch(/^dense replay: 2 of 3 files in .* were not replayed/m);
    expect(replayedFiles(stdout)).toEqual(['session.jsonl']);
  });

  it('#32.3 a symlink loop does not hang: a link to an enclosing directory is named, not walked', async () => {
    await mkdir(path.join(dir, 'sub'));
    await symlink(dir, path.join(dir, 'sub', 'up'));
    const { code, stderr } = await run('replay', dir, '--strategy', 'none');
    expect(code).toBe(1);
    expect(stderr).toMatch(/skipped .*sub\/up: symlink to a directory, not followed/);
  });
});

describe('#32.3 dense replay --help', () => {
  it('#32.3 lists every flag docs/replay.md documents for the command', async () => {
    const doc = await readFile(
      fileURLToPath(new URL('../../../../docs/replay.md', import.meta.url)),
      'utf8',
    );
    // The flags the command's section documents: its synopsis and the bullets opening with one.
    const start = doc.indexOf('## `dense replay`');
    const section = doc.slice(start, doc.indexOf('\n## ', start + 1));
    const synopsis = /^dense replay <file\|dir> .*$/m.exec(section)?.[0] ?? '';
    const bullets = [...section.matchAll(/^- `(--[a-z][a-z-]*)/gm)].map((m) => m[1] ?? '');
    const flags = [...new Set([...(synopsis.match(/--[a-z][a-z-]*/g) ?? []), ...bullets])];
    expect(flags).toEqual(
      expect.arrayContaining([
        '--strategy',
        '--set',
        '--context-limit',
        '--json',
        '--report',
        '--sent',
      ]),
    );
    const { code, stdout } = await runReplay(os.tmpdir(), ['replay', '--help']);
    expect(code).toBe(0);
    const missing = flags.filter((flag) => !new RegExp(`^\\s+${flag}\\b`, 'm').test(stdout));
    expect(missing).toEqual([]);
  });
});
