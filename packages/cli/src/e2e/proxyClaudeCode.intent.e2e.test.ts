/**
 * The user's task survives every compaction, with the real Claude Code binary (pinned) against a
 * loopback upstream scripted as a long session: the first prompt carries a constraint, the model
 * keeps a task list with `TaskCreate` / `TaskUpdate` as Claude Code 2.x does, then reads large
 * files past the working budget. Through `dense proxy` with defaults (the working budget compacts
 * more than once) and with `workingBudget: 'off'` (Claude Code compacts and Dense answers), the
 * last request upstream still holds the first prompt verbatim and the task list as it stands.
 */
import { rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RecallArchive, startProxyServer, type ProxyServer } from '@dense/core';
import { ensureBuilt } from '../test-utils/builtBinary.js';
import { startLongUpstream, type LongUpstream } from '../test-utils/claudeCodeLongUpstream.js';
import {
  claudeCodeEnv,
  claudeCodeSuite,
  runClaudeCode,
  sessionDirs,
} from '../test-utils/claudeCodeSession.js';
import type { AgentRun } from '../test-utils/runAgentCli.js';

const { command, skipReason, title } = await claudeCodeSuite('user intent', ensureBuilt);

const ANSWER = 'DENSE-E2E-DONE: all files read.';
const PROMPT =
  'Read every file in this folder, one after the other. Constraint: do not modify, move or delete any file; this is a read-only audit.';
const TASKS = ['Audit the first half of the parts', 'Audit the second half of the parts'];
const FILES = 18;
const LINES = 1_200;

function fileText(index: number): string {
  return Array.from(
    { length: LINES },
    (_, i) => `part ${index} line ${i + 1}: the quick brown fox jumps over the lazy dog`,
  ).join('\n');
}

/** Every text the request sends in its messages (text blocks and tool results), joined. */
function sentText(raw: string): string {
  const body = JSON.parse(raw) as { messages: { content: unknown }[] };
  const parts: string[] = [];
  const visit = (value: unknown): void => {
    if (typeof value === 'string') parts.push(value);
    else if (Array.isArray(value)) value.forEach(visit);
    else if (typeof value === 'object' && value !== null) Object.values(value).forEach(visit);
  };
  visit(body.messages);
  return parts.join('\n');
}

/**
 * The task list as Dense's summary carries it once the `TaskCreate`/`TaskUpdate` turns are
 * compacted: task 1 done, task 2 pending.
 */
function expectTaskList(text: string): void {
  expect(text).toContain(`[x] ${TASKS[0]} (id: 1, completed)`);
  expect(text).toContain(`[ ] ${TASKS[1]} (id: 2, pending)`);
}

describe.skipIf(skipReason !== undefined)(title, () => {
  let base: string;
  let budgeted: LongUpstream;
  let answered: LongUpstream;
  let budgetProxy: ProxyServer;
  let answeringProxy: ProxyServer;
  let budgetRun: AgentRun;
  let answeredRun: AgentRun;
  const budgetLines: string[] = [];
  const answeringLines: string[] = [];

  beforeAll(async () => {
    const dirs = await sessionDirs('dense-intent-cc-');
    base = dirs.base;
    const files: string[] = [];
    for (let index = 0; index < FILES; index++) {
      const file = path.join(dirs.workspace, `part${index}.txt`);
      await writeFile(file, `${fileText(index)}\n`);
      files.push(file);
    }
    const recall = () => new RecallArchive({ dir: path.join(base, 'dense-home', 'recall') });
    const run = (url: string) =>
      runClaudeCode({
        command,
        cwd: dirs.workspace,
        env: claudeCodeEnv({ home: dirs.home, baseUrl: url }),
        prompt: PROMPT,
        model: 'claude-sonnet-4-6',
        allowedTools: 'Read,TaskCreate,TaskUpdate,TaskList,TaskGet',
        timeoutMs: 420_000,
        maxBuffer: 16 * 1024 * 1024,
      });
    budgeted = await startLongUpstream({ files, answer: ANSWER, tasks: TASKS });
    budgetProxy = await startProxyServer({
      anthropicUpstream: budgeted.url,
      recall: recall(),
      log: (line) => budgetLines.push(line),
    });
    budgetRun = await run(budgetProxy.url);
    answered = await startLongUpstream({ files, answer: ANSWER, tasks: TASKS });
    answeringProxy = await startProxyServer({
      anthropicUpstream: answered.url,
      workingBudget: 'off',
      recall: recall(),
      log: (line) => answeringLines.push(line),
    });
    answeredRun = await run(answeringProxy.url);
  }, 900_000);

  afterAll(async () => {
    if (process.env.DENSE_E2E_DUMP !== undefined) {
      const { writeFileSync } = await import('node:fs');
      writeFileSync(
        `${process.env.DENSE_E2E_DUMP}.budget.json`,
        JSON.stringify(budgeted.main.map((r) => r.raw)),
      );
      writeFileSync(
        `${process.env.DENSE_E2E_DUMP}.answered.json`,
        JSON.stringify(answered.main.map((r) => r.raw)),
      );
    }
    await budgetProxy?.close();
    await answeringProxy?.close();
    await budgeted?.close();
    await answered?.close();
    if (base !== undefined) await rm(base, { recursive: true, force: true });
  });

  it('#33.1 Claude Code 2.x keeps its task list with TaskCreate/TaskUpdate (deferred tools), not TodoWrite', () => {
    expect(budgetRun).toMatchObject({ code: 0 });
    expect(budgetRun.stdout).toContain(ANSWER);
    const first = budgeted.main[0]?.raw ?? '';
    // 2.1.331 names them in a reminder of deferred tools (loaded through ToolSearch) …
    expect(sentText(first)).toMatch(/deferred tools[\s\S]*TaskCreate[\s\S]*TaskUpdate/);
    expect(first).not.toContain('"name":"TodoWrite"');
    // … and runs a direct call all the same: the client's own result numbers the task.
    const results = budgeted.main.map((request) => sentText(request.raw)).join('\n');
    expect(results).toContain(`Task #1 created successfully: ${TASKS[0]}`);
  });

  it('#33.1 through the working budget (two compactions or more) the last request holds the first prompt verbatim and the task list', () => {
    const cuts = new Set(
      budgetLines.flatMap(
        (line) => /compacted (\d+) msgs to the working budget/.exec(line)?.[1] ?? [],
      ),
    );
    console.log(
      `working budget: ${budgeted.main.length} main requests, compaction cuts ${[...cuts].join(', ')}`,
    );
    expect(cuts.size).toBeGreaterThanOrEqual(2);
    expect(budgeted.compactionRequests).toHaveLength(0);
    const last = sentText(budgeted.main.at(-1)?.raw ?? '{"messages":[]}');
    expect(last).toContain(PROMPT);
    expectTaskList(last);
  });

  it("#33.1 with the working budget off, Dense answers Claude Code's compaction and the prompt and list survive it", () => {
    expect(answeredRun).toMatchObject({ code: 0 });
    expect(answeredRun.stdout).toContain(ANSWER);
    expect(answered.compactionRequests).toHaveLength(0);
    expect(
      answeringLines.filter((line) => line.includes('answered by Dense')).length,
    ).toBeGreaterThan(0);
    const last = sentText(answered.main.at(-1)?.raw ?? '{"messages":[]}');
    expect(last).toContain('Dense summarized the');
    expect(last).toContain(PROMPT);
    expectTaskList(last);
  });
});
