/**
 * `dense statusline` in the real Claude Code's status line. `claude -p` never runs the status line
 * command (measured: a `statusLine` command writing a marker file is not run in a `-p` session),
 * so Claude Code runs interactively in a pseudo-terminal (node-pty) with a private HOME whose
 * settings name `dense statusline`, pointed at a real proxy (`ANTHROPIC_BASE_URL`, loopback) in
 * front of a scripted upstream. After one prompt, the terminal shows the line the proxy's stats
 * give for the session id Claude Code sent in its `x-claude-code-session-id` header.
 */
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { spawn, type IPty } from 'node-pty';
import { afterAll, describe, expect, it } from 'vitest';
import { formatStatusLine, RecallArchive, sessionStatus, startProxyServer } from '@dense/core';
import { DENSE_BIN, ensureBuilt } from '../test-utils/builtBinary.js';
import { streamReply } from '../test-utils/claudeCodeWire.js';
import { claudeCodeEnv, claudeCodeSuite, sessionDirs } from '../test-utils/claudeCodeSession.js';
import { parseBody, startLoopbackUpstream } from '../test-utils/loopbackUpstream.js';
import { stripAnsi } from '../test-utils/processDrivers.js';

const { command, skipReason, title } = await claudeCodeSuite('dense statusline', ensureBuilt);

const ANSWER = 'Hello from the scripted upstream.';
const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** Claude Code's own files: onboarding done, the workspace trusted, the dummy key approved. */
async function claudeHome(home: string, workspace: string): Promise<void> {
  await mkdir(path.join(home, '.claude'), { recursive: true });
  const statusLine = {
    type: 'command',
    command: `"${process.execPath}" "${DENSE_BIN}" statusline`,
  };
  await writeFile(path.join(home, '.claude', 'settings.json'), JSON.stringify({ statusLine }));
  await writeFile(
    path.join(home, '.claude.json'),
    JSON.stringify({
      hasCompletedOnboarding: true,
      theme: 'dark',
      customApiKeyResponses: { approved: ['dummy'], rejected: [] },
      projects: {
        [workspace]: { hasTrustDialogAccepted: true, hasCompletedProjectOnboarding: true },
      },
    }),
  );
}

/** Resolves once `found(text)` holds for the terminal's text (ANSI codes and spaces removed). */
async function waitForScreen(screen: () => string, found: (text: string) => boolean, ms: number) {
  const deadline = Date.now() + ms;
  while (!found(screen())) {
    if (Date.now() > deadline)
      throw new Error(`timed out; the screen ends:\n${screen().slice(-1500)}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describe.skipIf(skipReason !== undefined)(title, () => {
  it('#37.2 the interactive status line shows the proxy’s line for the session Claude Code runs', async () => {
    const upstream = await startLoopbackUpstream(({ url, raw }, response) => {
      if (url.includes('count_tokens')) {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end('{"input_tokens":100}');
        return;
      }
      const usage = {
        input_tokens: Math.round(raw.length / 4),
        cache_creation_input_tokens: 0,
        cache_read_input_tokens: 0,
      };
      streamReply(response, parseBody(raw).model, { type: 'text', text: ANSWER }, usage);
    });
    cleanups.push(() => upstream.close());
    const dirs = await sessionDirs('dense-statusline-cc-');
    cleanups.push(() => rm(dirs.base, { recursive: true, force: true }));
    const proxy = await startProxyServer({
      anthropicUpstream: upstream.url,
      recall: new RecallArchive({ dir: path.join(dirs.base, 'recall') }),
      log: () => undefined,
    });
    cleanups.push(() => proxy.close());
    await claudeHome(dirs.home, dirs.workspace);
    const [file = '', ...args] = command;
    const env = claudeCodeEnv({ home: dirs.home, baseUrl: proxy.url });
    const pty: IPty = spawn(file, args, {
      name: 'xterm-256color',
      cols: 120,
      rows: 40,
      cwd: dirs.workspace,
      env: { ...env, TERM: 'xterm-256color' },
    });
    cleanups.push(() => Promise.resolve(pty.kill()));
    let output = '';
    pty.onData((data) => (output += data));
    const screen = () => stripAnsi(output).replace(/\s+/g, '');

    await waitForScreen(screen, (text) => text.includes('❯'), 60_000);
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    pty.write('say hello');
    await new Promise((resolve) => setTimeout(resolve, 500));
    pty.write('\r');
    await waitForScreen(screen, (text) => text.includes(ANSWER.replace(/\s+/g, '')), 90_000);

    const stats = proxy.stats.toJSON();
    const sessions = Object.keys(stats.conversations).map((key) => key.split(':')[1] ?? '');
    expect(sessions.length).toBeGreaterThan(0);
    const sessionId = sessions[0] ?? '';
    const status = sessionStatus(stats, sessionId);
    expect(status?.context?.upstreamTokens).toBeGreaterThan(1_000);
    const expected = formatStatusLine(
      status ?? { context: undefined, billedCost: 0, passThroughCost: 0, compactionsAvoided: 0 },
    );
    expect(expected).toMatch(/^dense ▸ \d+k upstream \/ \d+k held/);
    await waitForScreen(screen, (text) => text.includes(expected.replace(/\s+/g, '')), 30_000);
  }, 240_000);
});
