/**
 * The end-to-end check: the real built `dense` in a pseudo-terminal against the mock LLM
 * server running as its own process. Settings and a profile survive a restart; a scripted tool
 * turn reads, edits and re-reads a file; /context then shows the stale read pruned.
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt } from '../test-utils/builtBinary.js';
import {
  PtyDense,
  startMockServerProcess,
  type MockServerProcess,
} from '../test-utils/processDrivers.js';

const notBuilt = await ensureBuilt();
if (notBuilt !== undefined) console.warn(`Skipping the CLI end-to-end tests: ${notBuilt}`);

const SCRIPT = {
  replies: [
    // #13.2: the first request is rate limited; the CLI counts down to the retry.
    { kind: 'http-error', status: 429, message: 'slow down', headers: { 'retry-after': '2' } },
    {
      kind: 'stream',
      text: 'Let me read it.',
      toolCalls: [{ id: 'call_r1', name: 'read_file', arguments: { file_path: 'notes.txt' } }],
    },
    {
      kind: 'stream',
      toolCalls: [
        {
          id: 'call_e1',
          name: 'replace',
          arguments: {
            file_path: 'notes.txt',
            old_string: 'status: draft',
            new_string: 'status: final',
          },
        },
      ],
    },
    {
      kind: 'stream',
      toolCalls: [{ id: 'call_r2', name: 'read_file', arguments: { file_path: 'notes.txt' } }],
    },
    { kind: 'stream', text: ['The file now says ', 'status: final.'] },
  ],
  fallback: { kind: 'stream', text: '(no more scripted replies)' },
};

// eslint-disable-next-line no-control-regex
const FOREGROUND_COLOR = /\u001b\[(3[0-7]|9[0-7]|38;[25];[\d;]+)m/;

const NOTES = [
  '# Release notes',
  ...Array.from({ length: 30 }, (_, i) => `- item ${i + 1}: fixed a small thing in module ${i}`),
  'status: draft',
  '',
].join('\n');

describe.skipIf(notBuilt !== undefined)('dense in a terminal (end to end)', () => {
  let base: string;
  let workspace: string;
  let env: NodeJS.ProcessEnv;
  let server: MockServerProcess;
  const running: PtyDense[] = [];

  const start = (args: string[], extraEnv: NodeJS.ProcessEnv = {}): PtyDense => {
    const dense = new PtyDense({ args, cwd: workspace, env: { ...env, ...extraEnv } });
    running.push(dense);
    return dense;
  };

  beforeAll(async () => {
    base = await mkdtemp(path.join(tmpdir(), 'dense-e2e-'));
    workspace = path.join(base, 'ws');
    await mkdir(workspace);
    await writeFile(path.join(workspace, 'notes.txt'), NOTES);
    env = { DENSE_HOME: path.join(base, 'home') };
    server = await startMockServerProcess(base, SCRIPT);
  });

  afterAll(async () => {
    for (const dense of running) dense.kill();
    await server?.stop();
    await rm(base, { recursive: true, force: true });
  });

  it('settings saved to a profile come back with --profile; a tool turn is pruned by density', async () => {
    const first = start(['--base-url', `${server.url}/v1`]);
    await first.waitFor('Ask, or type /help');
    // #13.1: high-density is the default strategy; a newcomer's footer says so.
    await first.waitFor('high-density │ ctx');
    await first.send(
      '/set compression-threshold 0.9',
      'compression-threshold = 0.9 (this session only)',
    );
    await first.send(
      '/set compression.density.recencyPruning true',
      'compression.density.recencyPruning = true (this session only)',
    );
    // #13.4: /model lists the provider's known models and switches.
    await first.send('/model', /Known openai models[\s\S]*gpt-4o/);
    await first.send('/model gpt-4o', /Now using openai\/gpt-4o at \S+ for this session\./);
    await first.waitFor('gpt-4o · high-density │ ctx');
    await first.send('/model gpt-5.4', 'Now using openai/gpt-5.4');
    await first.send('/profile save t', "Saved profile 't'");
    first.write('/quit\r');
    expect(await first.exited).toBe(0);
    expect(first.raw).toMatch(FOREGROUND_COLOR);

    const second = start(['--profile', 't'], { NO_COLOR: '1' });
    await second.waitFor("profile 't'");
    await second.send('/set compression.strategy', 'current: high-density (default)');
    await second.send('/set compression-threshold', "current: 0.9 (from profile 't')");
    await second.send(
      '/set compression.density.recencyPruning',
      "current: true (from profile 't')",
    );

    const since = second.mark();
    second.write('please finalize notes.txt\r');
    await second.waitFor(/rate limited — retry 2\/4 in [12] s/, since);
    await second.waitFor('Allow replace? (write)', since);
    // #13.3: the prompt shows the edit as a unified diff.
    await second.waitFor(/-status: draft[\s│]+\+status: final/, since);
    second.write('y');
    await second.waitFor('The file now says status: final.', since);
    expect(await readFile(path.join(workspace, 'notes.txt'), 'utf8')).toContain('status: final');

    const match = await second.send(
      '/context',
      /READ→WRITE\s+1 stale read pruned · ([\d,]+) tokens freed/,
    );
    const freed = Number((match[1] ?? '0').replace(/,/g, ''));
    expect(freed).toBeGreaterThan(100);
    const report = second.text.slice(second.text.lastIndexOf('Context:'));
    expect(report).toContain('Strategy: high-density');
    expect(report).toMatch(/read_file\s+[\d,]+/);
    expect(report).toMatch(/replace\s+[\d,]+/);
    expect(report).toContain(`total        ${match[1]} tokens reclaimed`);
    expect(report).toContain('Compressions: none yet');

    // Ctrl-C while idle leaves; the recording is named on the way out.
    second.write('\u0003');
    expect(await second.exited).toBe(0);
    expect(second.text).toMatch(/Resume it with: dense --resume \d{8}-\d{6}-[0-9a-f]{6}/);
    expect(second.raw).not.toMatch(FOREGROUND_COLOR);
  }, 120_000);
});
