/** `dense replay` beside the agent's own compaction: `% of recorded` and time blocked. */
import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { recordingsDir, runReplay } from '../test-utils/replayCli.js';
import { recording, selfCompactedRecording } from '../test-utils/replayFixture.js';

let dir: string;

beforeEach(async () => {
  dir = await recordingsDir('dense-replay-recorded-', {
    'compacted.jsonl': selfCompactedRecording(),
    'plain.jsonl': recording(),
  });
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const run = (...argv: string[]) => runReplay(dir, argv);

describe('#25.6 dense replay against the agent’s own compaction', () => {
  it('#25.6 the table shows cost % of none, % of recorded and the time blocked', async () => {
    const { code, stdout } = await run('replay', dir, '--strategy', 'recorded');
    expect(code).toBe(0);
    const lines = stdout.split('\n');
    expect(lines[0]).toMatch(/cost % none\s+cost % recorded\s+blocked$/);
    const compacted = lines.find((line) => line.startsWith('compacted.jsonl')) ?? '';
    expect(compacted).toMatch(/100\.0%\s+70\.0 s$/);
    expect(stdout).toMatch(/time blocked by compactions \(longest\)\s+70\.0 s \(70\.0 s\)/);
    const dense = await run('replay', dir, '--strategy', 'high-density');
    expect(dense.stdout).toMatch(
      /vs the agent's own compaction: cost, Anthropic 5m \/ OpenAI\s+\d/,
    );
  });

  it('#25.6 --json carries vsRecorded, the summarization call and time blocked per compaction', async () => {
    const { stdout } = await run(
      'replay',
      path.join(dir, 'compacted.jsonl'),
      '--json',
      '--strategy',
      'recorded',
    );
    const parsed = JSON.parse(stdout) as {
      sessions: Record<string, unknown>[];
      totals: Record<string, unknown>;
    };
    expect(parsed.sessions[0]).toMatchObject({
      strategy: 'recorded',
      compressions: 1,
      summarization: { calls: 1 },
      timeBlocked: { perCompactionMs: [70_000], source: 'recorded' },
      vsRecorded: { byProvider: { anthropic: { ratioToNone: 1 } } },
    });
    expect(parsed.totals).toMatchObject({ timeBlocked: { totalMs: 70_000 }, vsRecorded: {} });
  });

  it('#25.6 --report adds recorded and the % of recorded and time-blocked columns', async () => {
    const out = path.join(dir, 'out.html');
    expect((await run('replay', dir, '--report', out)).code).toBe(0);
    const html = await readFile(out, 'utf8');
    expect(html).toContain('<th scope="row">recorded</th>');
    expect(html).toContain('<th>cost, % of recorded</th>');
    expect(html).toContain('<th>time blocked by compactions</th>');
  });
});
