/**
 * `dense savings` on folders laid out like a user's home (synthetic sessions in Claude Code's,
 * Codex's and gemini-cli's own formats and places): the figures, files that do not import,
 * `--since`, the clients' environment variables, `--path`, and "no transcripts found".
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI_SUBCOMMANDS } from '../args/subcommands.js';
import { main } from '../main.js';
import { captureIO } from '../test-utils/captureIO.js';
import { runSavingsCli } from './test-utils/runSavingsCli.js';
import { claudeCodeSession, T0 } from './test-utils/syntheticSessions.js';
import { syntheticHome, writeAged, type SyntheticHome } from './test-utils/syntheticHome.js';

let home: SyntheticHome;
let run: Awaited<ReturnType<typeof runSavingsCli>>;
const scratch: string[] = [];

beforeAll(async () => {
  home = await syntheticHome();
  run = await runSavingsCli(home.home, { HOME: home.home }, []);
}, 120_000);

afterAll(async () => {
  for (const dir of [home.home, ...scratch]) await rm(dir, { recursive: true, force: true });
});

async function tempDir(prefix: string): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), prefix));
  scratch.push(dir);
  return dir;
}

/** The table row of `source`, its cells split on runs of two or more spaces. */
function rowOf(stdout: string, source: string): string[] {
  const line = stdout.split('\n').find((l) => l.startsWith(`${source}  `));
  if (line === undefined) throw new Error(`no row for ${source} in:\n${stdout}`);
  return line.split(/\s{2,}/);
}

const dollarsOf = (cell: string | undefined): number => Number(cell?.replace('$', '') ?? NaN);

describe('#37.1 dense savings on a home laid out like Claude Code, Codex and gemini-cli', () => {
  it('#37.1 prints cost without and with Dense, compactions and waiting avoided, per source and in total', () => {
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(
      /^Dense savings: 4 sessions \(Claude Code, Codex, gemini-cli\) in 4 files/m,
    );
    const claude = rowOf(run.stdout, 'Claude Code');
    const codex = rowOf(run.stdout, 'Codex');
    const total = rowOf(run.stdout, 'total');
    expect(claude[1]).toBe('2');
    expect(codex[1]).toBe('1');
    expect(rowOf(run.stdout, 'gemini-cli')[1]).toBe('1');
    expect(total[1]).toBe('4');
    // Each session compacted itself once and Dense answers without waiting: cheaper with Dense.
    for (const row of [claude, codex, total]) {
      expect(dollarsOf(row[3])).toBeLessThan(dollarsOf(row[2]));
      expect(row[5]).toBe(row === total ? '2' : '1');
    }
    // The recorded waits: 80 s (Claude Code) and 70 s (Codex).
    expect(claude[6]).toBe('1.3 min');
    expect(codex[6]).toBe('1.2 min');
    expect(total[6]).toBe('2.5 min');
    expect(total[7]).toMatch(/^\d+\.\d% → \d+\.\d%/);
    expect(total[8]).toMatch(/→ 100\.0%$/);
  });

  it('#37.1 names the policy, the working budget, the price table and the model prices it used', () => {
    expect(run.stdout).toContain('the `recorded` policy');
    expect(run.stdout).toContain(
      "No replay policy is the proxy itself, so this is the high-density policy with the proxy's default working budget (80,000 tokens)",
    );
    expect(run.stdout).toContain('API list prices per million input tokens');
    expect(run.stdout).toContain(
      'Claude Sonnet $3.00/M input, Anthropic (5-minute cache) (2 sessions)',
    );
    expect(run.stdout).toContain(
      'GPT-5 $1.25/M input, OpenAI (automatic prefix caching) (1 session)',
    );
    expect(run.stdout).toContain('Nothing left this machine.');
  });

  it("#37.1 leaves out Claude Code's compaction-call files and says so", () => {
    expect(run.stdout).not.toContain('agent-acompact');
    expect(run.stderr).toContain('left out 1 client compaction call file(s)');
  });

  it('#37.1 progress on stderr: a plain line when stderr is not a terminal', () => {
    expect(run.stderr).toMatch(/^dense savings: 4 of 4 files replayed$/m);
    expect(run.stderr).not.toContain('\r');
  });
});

describe('#37.1 dense savings: what it cannot use and where it looks', () => {
  it('#37.1 "no transcripts found" says where it looked and how to point it elsewhere (exit 0)', async () => {
    const empty = await tempDir('dense-savings-empty-');
    await mkdir(path.join(empty, '.codex', 'sessions'), { recursive: true });
    const result = await runSavingsCli(empty, { HOME: empty }, []);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(
      'dense savings: no transcripts found (modified within --since 30d).',
    );
    expect(result.stdout).toContain(
      `${path.join(empty, '.claude', 'projects')} (**/*.jsonl): no such folder`,
    );
    expect(result.stdout).toContain(
      `${path.join(empty, '.codex', 'sessions')} (**/rollout-*.jsonl): 0 transcript files, 0 recent enough`,
    );
    expect(result.stdout).toContain(path.join(empty, '.gemini', 'tmp'));
    expect(result.stdout).toContain('--path <dir|file>');
    expect(result.stderr).toBe('');
  });

  it('#37.1 a file that fails to import is listed with its reason; the rest is reported', async () => {
    const dir = await tempDir('dense-savings-bad-');
    const project = path.join(dir, '.claude', 'projects', '-work-app');
    await writeAged(
      path.join(project, 'good.jsonl'),
      claudeCodeSession({ id: 'good', rounds: 2, model: 'claude-haiku-4-5', start: T0 }),
    );
    await writeAged(path.join(project, 'broken.jsonl'), '{"neither":"format"}\n');
    const result = await runSavingsCli(dir, { HOME: dir }, []);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^Not imported \(1 file; the figures cover the rest\):$/m);
    expect(result.stdout).toMatch(
      new RegExp(`^  ${path.join(project, 'broken.jsonl')}: \\S.+$`, 'm'),
    );
    expect(rowOf(result.stdout, 'Claude Code')[1]).toBe('1');
    expect(result.stdout).toContain('Claude Haiku 4.5 $1.00/M input');
  });

  it('#37.1 --since filters by file modification time', async () => {
    const dir = await tempDir('dense-savings-since-');
    const project = path.join(dir, '.claude', 'projects', '-work-app');
    const session = (id: string) =>
      claudeCodeSession({ id, rounds: 2, model: 'claude-sonnet-4-5', start: T0 });
    await writeAged(path.join(project, 'recent.jsonl'), session('recent'), 2);
    await writeAged(path.join(project, 'old.jsonl'), session('old'), 45);
    const byDefault = await runSavingsCli(dir, { HOME: dir }, []);
    expect(rowOf(byDefault.stdout, 'total')[1]).toBe('1');
    const wider = await runSavingsCli(dir, { HOME: dir }, ['--since', '60d']);
    expect(rowOf(wider.stdout, 'total')[1]).toBe('2');
    const narrow = await runSavingsCli(dir, { HOME: dir }, ['--since', '24h']);
    expect(narrow.stdout).toContain('no transcripts found (modified within --since 24h)');
    expect(narrow.stdout).toContain('2 transcript files, 0 recent enough');
    const bad = await runSavingsCli(dir, { HOME: dir }, ['--since', 'lately']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^dense savings: --since expects a duration/m);
  });

  it("#37.1 CLAUDE_CONFIG_DIR and CODEX_HOME move where it looks; --path replaces the clients' folders", async () => {
    const dir = await tempDir('dense-savings-env-');
    const claudeDir = path.join(dir, 'claude-config');
    await writeAged(
      path.join(claudeDir, 'projects', 'p', 's.jsonl'),
      claudeCodeSession({ id: 's', rounds: 2, model: 'claude-sonnet-4-5', start: T0 }),
    );
    const env = {
      HOME: home.home,
      CLAUDE_CONFIG_DIR: claudeDir,
      CODEX_HOME: path.join(dir, 'no-codex'),
    };
    const moved = await runSavingsCli(dir, env, []);
    expect(rowOf(moved.stdout, 'Claude Code')[1]).toBe('1');
    expect(moved.stdout).not.toMatch(/^Codex {2}/m);
    const only = await runSavingsCli(dir, { HOME: home.home }, ['--path', home.files.codex ?? '']);
    expect(only.stdout).toMatch(/^Dense savings: 1 session \(Codex\) in 1 file/m);
    const missing = await runSavingsCli(dir, { HOME: home.home }, [
      '--path',
      path.join(dir, 'nowhere'),
    ]);
    expect(missing.stdout).toContain(
      `--path      ${path.join(dir, 'nowhere')} (**/*.jsonl, **/*.json): no such folder`,
    );
  });

  it('#37.1 a --path folder of any layout: its .jsonl and .json files', async () => {
    const dir = await tempDir('dense-savings-path-');
    await writeAged(
      path.join(dir, 'copies', 'a.jsonl'),
      claudeCodeSession({ id: 'a', rounds: 2, model: 'claude-sonnet-4-5', start: T0 }),
    );
    await writeFile(path.join(dir, 'copies', 'notes.txt'), 'not a transcript');
    const result = await runSavingsCli(dir, { HOME: dir }, ['--path', 'copies']);
    expect(result.code).toBe(0);
    expect(rowOf(result.stdout, 'Claude Code')[1]).toBe('1');
    expect(result.stdout).not.toContain('notes.txt');
  });
});

describe('#37.1 dense savings is a dense subcommand, documented', () => {
  it('#37.1 `dense savings --help` (the registered list) names every flag docs/cli.md documents', async () => {
    const doc = await readFile(
      fileURLToPath(new URL('../../../../docs/cli.md', import.meta.url)),
      'utf8',
    );
    const start = doc.indexOf('## `dense savings`');
    const section = doc.slice(start, doc.indexOf('\n## ', start + 1));
    const flags = [...new Set(section.match(/--[a-z][a-z-]*/g) ?? [])];
    expect(flags).toEqual(expect.arrayContaining(['--since', '--path', '--report']));
    const { io, out } = captureIO(os.tmpdir());
    const code = await main({ argv: ['savings', '--help'], io, subcommands: CLI_SUBCOMMANDS });
    expect(code).toBe(0);
    const missing = flags.filter((flag) => !new RegExp(`^\\s+${flag}\\b`, 'm').test(out.stdout));
    expect(missing).toEqual([]);
  });
});
