import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { recordingsDir, runReplay } from '../test-utils/replayCli.js';
import { recording } from '../test-utils/replayFixture.js';

let dir: string;

beforeEach(async () => {
  dir = await recordingsDir('dense-replay-cli-', { 'session.jsonl': recording() });
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const run = (...argv: string[]) => runReplay(dir, argv);

describe('dense replay', () => {
  it("--json prints {sessions, totals} with the issue's fields; high-density reclaims the stale read", async () => {
    const { code, stdout, stderr } = await run('replay', path.join(dir, 'session.jsonl'), '--json');
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const parsed = JSON.parse(stdout) as {
      sessions: Record<string, unknown>[];
      totals: Record<string, unknown>;
    };
    const [session] = parsed.sessions;
    for (const key of [
      'file',
      'format',
      'turns',
      'toolCalls',
      'strategy',
      'cumulativeInputTokens',
      'peakContextTokens',
      'finalContextTokens',
      'compressions',
      'firstCompressionTurn',
      'densityRemovedTokens',
      'staleTokens',
      'staleReclaimedTokens',
      'liveLostTokens',
      'historyRewrites',
      'cacheWeightedInputTokens',
      'cacheCost',
      'timedModelCalls',
      'vsNone',
      'densityOverheadMs',
    ]) {
      expect(session).toHaveProperty(key);
    }
    expect(session).toMatchObject({
      format: 'dense-session',
      strategy: 'high-density',
      turns: 1,
      toolCalls: 4,
      liveLostTokens: 0,
    });
    const stale = session?.staleTokens as { reads: number };
    expect(stale.reads).toBeGreaterThan(200);
    expect(session?.staleReclaimedTokens).toMatchObject({ reads: stale.reads });
    expect(parsed.totals).toMatchObject({ sessions: 1, modelCalls: 5 });
  });

  it('a directory: a row per session and a total; files that are no transcript are named on stderr and fail the run (#32.3)', async () => {
    await writeFile(path.join(dir, 'notes.txt'), 'just some notes\n');
    await writeFile(path.join(dir, 'again.jsonl'), recording());
    const { code, stdout, stderr } = await run('replay', dir, '--strategy', 'none');
    expect(code).toBe(1);
    expect(stderr).toMatch(/^dense replay: skipped .*notes\.txt: /m);
    const lines = stdout.split('\n');
    expect(lines[0]).toMatch(/^session\s+format\s+calls\s+input/);
    expect(
      lines.filter((line) => /^(again|session)\.jsonl\s+dense-session/.test(line)),
    ).toHaveLength(2);
    expect(stdout).toMatch(/^total\s/m);
    expect(stdout).toMatch(/sessions \(compressed\)\s+2 \(0\)/);
  });

  it('#12.9 a truncated .jsonl still replays, with a warning on stderr naming the torn line', async () => {
    const torn = path.join(dir, 'torn.jsonl');
    await writeFile(torn, `${recording()}{"kind":"content","speaker":"ai","blo`);
    const { code, stdout, stderr } = await run('replay', torn, '--json');
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toHaveProperty('sessions');
    expect(stderr).toMatch(
      /^dense replay: warning: .*torn\.jsonl: 1 record could not be read and was left out \(first: line 12: /,
    );
  });

  /** A mini-swe-agent run whose model never answered: imports, but with no model call. */
  const noReplies = JSON.stringify({
    trajectory_format: 'mini-swe-agent-1.1',
    info: { mini_version: '2.0.0' },
    messages: [
      { role: 'system', content: 'You run bash commands.' },
      { role: 'user', content: 'Fix the add function.' },
    ],
  });

  it('#22.17 an import with no model call warns, is marked in the report and exits non-zero', async () => {
    const file = path.join(dir, 'empty.traj.json');
    await writeFile(file, noReplies);
    const { code, stdout, stderr } = await run('replay', file, '--json');
    expect(code).toBe(1);
    expect(stderr).toMatch(/^dense replay: warning: .*empty\.traj\.json: imported no model call/m);
    expect(stderr).toMatch(/no file in .* imported completely/);
    const [session] = (JSON.parse(stdout) as { sessions: { importProblem?: string }[] }).sessions;
    expect(session?.importProblem).toMatch(/^imported no model call \(0 of 0 model calls/);
  });

  it('#22.17 a directory with one complete import exits 0 and marks the incomplete row', async () => {
    await writeFile(path.join(dir, 'empty.traj.json'), noReplies);
    const { code, stdout, stderr } = await run('replay', dir, '--strategy', 'none');
    expect(code).toBe(0);
    expect(stderr).toMatch(/warning: .*empty\.traj\.json: imported no model call/);
    expect(stdout).toMatch(/^empty\.traj\.json !\s+mini-swe-agent/m);
    expect(stdout).toMatch(/^! incomplete import/m);
    expect(stdout).not.toMatch(/^session\.jsonl !/m);
  });

  it('one session in human form: every figure in one table', async () => {
    const { code, stdout } = await run(
      'replay',
      path.join(dir, 'session.jsonl'),
      '--strategy',
      'middle-out',
      '--context-limit',
      '64000',
    );
    expect(code).toBe(0);
    expect(stdout).toMatch(/strategy \/ context limit\s+middle-out \/ 64,000/);
    expect(stdout).toMatch(/stale reads reclaimed\s+0 of [\d,]+ \(0\.0%\)/);
    expect(stdout).toMatch(/summaries written by\s+offline summarizer/);
  });

  it('#13.8 the single-session report compares with none in plain words', async () => {
    const { code, stdout } = await run('replay', path.join(dir, 'session.jsonl'));
    expect(code).toBe(0);
    expect(stdout).toMatch(
      /Compared with no context management \(none\): high-density sends [\d.]+% of its input tokens \([\d,]+ fewer input tokens\); the largest context was [\d,]+ tokens instead of [\d,]+\./,
    );
  });

  it('#13.8 --report writes one self-contained HTML page: comparison, per-source table, charts', async () => {
    const out = path.join(dir, 'out.html');
    const { code, stderr } = await run('replay', dir, '--report', out, '--strategy', 'one-shot');
    expect(code).toBe(0);
    expect(stderr).toContain(`report written to ${out}`);
    const html = await readFile(out, 'utf8');
    expect(html.startsWith('<!doctype html>')).toBe(true);
    for (const policy of ['none', 'middle-out', 'high-density', 'one-shot']) {
      expect(html).toContain(`<th scope="row">${policy}</th>`);
    }
    expect(html).toContain('<h2>Per source file</h2>');
    expect(html).toContain('<h3>session.jsonl</h3>');
    expect(html).toMatch(/<figure><svg [^>]*>/);
    // Self-contained: no scripts, no links, no remote URLs except the SVG namespace.
    expect(html).not.toMatch(/<script|<link|src=|url\(/i);
    expect(html.replaceAll('http://www.w3.org/2000/svg', '')).not.toMatch(/https?:\/\//);
  });

  it('bad usage is one line on stderr and exit code 2', async () => {
    const bogus = await run('replay', dir, '--strategy', 'bogus');
    expect(bogus.code).toBe(2);
    expect(bogus.stderr).toMatch(
      /Unknown replay strategy 'bogus'. Use one of: none, recorded, middle-out/,
    );
    const flagKey = await run('replay', dir, '--set', 'context-limit=5');
    expect(flagKey.code).toBe(2);
    expect(flagKey.stderr).toBe(
      'dense replay: use --context-limit instead of --set context-limit.\n',
    );
    const badValue = await run('replay', dir, '--set', 'compression.density.recencyRetention=-1');
    expect(badValue.code).toBe(2);
    const missing = await run('replay', path.join(dir, 'nope'));
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/does not exist/);
  });

  it('--set reaches the replayed session (recency pruning on)', async () => {
    const plain = JSON.parse((await run('replay', dir, '--json')).stdout) as {
      totals: { densityRemovedTokens: { recency: number } };
    };
    const withRecency = JSON.parse(
      (
        await run(
          'replay',
          dir,
          '--json',
          '--set',
          'compression.density.recencyPruning=true',
          '--set',
          'compression.density.recencyRetention=1',
        )
      ).stdout,
    ) as { totals: { densityRemovedTokens: { recency: number } } };
    expect(plain.totals.densityRemovedTokens.recency).toBe(0);
    expect(withRecency.totals.densityRemovedTokens.recency).toBeGreaterThan(0);
  });
});
