/**
 * Issue #15 done-when: the real Claude Code binary (pinned) runs `claude -p` against `dense proxy`,
 * which forwards to an upstream scripted as Read → Edit → Read → answer. The stale first Read goes
 * upstream as the pointer once the edit succeeded, the second Read stays intact, and every later
 * request repeats the edit byte for byte.
 */
import { rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  member,
  parseJsonSpans,
  proxyPointer,
  RecallArchive,
  startProxyServer,
  stringMember,
  type JsonNode,
  type ProxyServer,
} from '@dense/core';
import {
  startClaudeCodeUpstream,
  type ClaudeCodeUpstream,
} from '../test-utils/claudeCodeUpstream.js';
import { NOTES_TEXT } from '../test-utils/agentSuite.js';
import {
  claudeCodeEnv,
  claudeCodeSuite,
  runClaudeCode,
  sessionDirs,
} from '../test-utils/claudeCodeSession.js';
import type { AgentRun } from '../test-utils/runAgentCli.js';

const { command, skipReason, title } = await claudeCodeSuite('dense proxy');

const ANSWER = 'DENSE-E2E-DONE: line 7 is edited.';

/** Raw text of each message and, per tool_use_id, the raw content of its tool_result. */
function messagesOf(raw: string): { messages: string[]; results: Map<string, string> } {
  const root = parseJsonSpans(raw);
  const list = member(root, 'messages');
  const items: readonly JsonNode[] = list?.kind === 'array' ? list.items : [];
  const results = new Map<string, string>();
  for (const message of items) {
    const content = member(message, 'content');
    for (const block of content?.kind === 'array' ? content.items : []) {
      const id = stringMember(block, 'tool_use_id');
      const value = member(block, 'content');
      if (id !== undefined && value !== undefined)
        results.set(id, raw.slice(value.start, value.end));
    }
  }
  return { messages: items.map((item) => raw.slice(item.start, item.end)), results };
}

describe.skipIf(skipReason !== undefined)(title, () => {
  let base: string;
  let upstream: ClaudeCodeUpstream;
  let proxy: ProxyServer;
  let recall: RecallArchive;
  let result: AgentRun;

  beforeAll(async () => {
    const dirs = await sessionDirs('dense-proxy-cc-');
    base = dirs.base;
    const { workspace, home } = dirs;
    const filePath = path.join(workspace, 'notes.txt');
    await writeFile(filePath, NOTES_TEXT);
    upstream = await startClaudeCodeUpstream({
      filePath,
      oldString: 'line 7: original',
      newString: 'line 7: edited',
      answer: ANSWER,
    });
    recall = new RecallArchive({ dir: path.join(base, 'recall') });
    proxy = await startProxyServer({ anthropicUpstream: upstream.url, recall });
    result = await runClaudeCode({
      command,
      cwd: workspace,
      env: claudeCodeEnv({ home, baseUrl: proxy.url }),
      prompt: 'Change line 7 of notes.txt to say edited.',
      allowedTools: 'Read,Edit',
      timeoutMs: 120_000,
    });
  }, 300_000);

  afterAll(async () => {
    await proxy?.close();
    await upstream?.close();
    if (base !== undefined) await rm(base, { recursive: true, force: true });
  });

  it('#15 Claude Code exits 0 with the scripted answer through the proxy', () => {
    expect(result).toMatchObject({ code: 0 });
    expect(result.stdout).toContain(ANSWER);
    expect(upstream.mainBodies.length).toBe(4);
  });

  it('#15 #24.2 after the edit the first Read goes upstream as the pointer naming `dense recall <id>`, the second Read intact', async () => {
    const [, , afterEdit, last] = upstream.mainBodies.map(messagesOf);
    const pointer = afterEdit?.results.get('toolu_dense_read_1') ?? '';
    const id = /dense recall (r[0-9a-f]{10})/.exec(pointer)?.[1] ?? '';
    const original = await recall.lookup(id);
    const originalText = original.kind === 'found' ? original.bytes.toString('utf8') : '';
    expect(originalText).toContain('line 7: original');
    expect(pointer).toBe(JSON.stringify(proxyPointer(id, originalText)));
    expect(last?.results.get('toolu_dense_read_1')).toBe(pointer);
    const secondRead = last?.results.get('toolu_dense_read_2') ?? '';
    expect(secondRead).toContain('line 7: edited');
    expect(secondRead).toContain('line 400:');
    expect(secondRead).not.toContain('dense recall');
  });

  it('#15 every later request repeats the edit byte for byte, and the metering says so', () => {
    const bodies = upstream.mainBodies.map(messagesOf);
    for (let index = 1; index < bodies.length; index++) {
      const previous = bodies[index - 1]?.messages ?? [];
      const current = bodies[index]?.messages ?? [];
      // The client moves its cache breakpoint off the previous newest message; all before it match.
      expect(current.slice(0, previous.length - 1)).toEqual(previous.slice(0, previous.length - 1));
    }
    const main = proxy.stats.toJSON().recent.filter((entry) => entry.route === 'anthropic');
    expect(main.filter((entry) => entry.newEdits > 0)).toHaveLength(1);
    expect(main.some((entry) => entry.prefixStable === false)).toBe(false);
    expect(main.at(-1)?.pointers).toBe(1);
    expect(main.every((entry) => entry.usage?.cacheRead === 1000)).toBe(true);
  });
});
