import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runSlashCommand } from '../commands/slashCommands.js';
import { contextReportLines } from '../format/contextReportLines.js';
import { makeTestDirs, makeTestSession, type TestDirs } from '../test-utils/cliTestSession.js';
import { findMemoryFiles, memoryPromptSection } from './memoryFiles.js';

let dirs: TestDirs;
beforeEach(async () => {
  dirs = await makeTestDirs();
});
afterEach(async () => {
  await dirs.cleanup();
});

describe('project memory files', () => {
  it('#13.5 AGENTS.md and DENSE.md from the workspace up to the repository root, outermost first', async () => {
    // base/.git is the repository root; the workspace is base/ws/pkg.
    const pkg = path.join(dirs.workspace, 'pkg');
    await mkdir(pkg);
    await mkdir(path.join(dirs.base, '.git'));
    await writeFile(path.join(dirs.base, 'AGENTS.md'), 'repo rule: run npm test\n');
    await writeFile(path.join(pkg, 'AGENTS.md'), 'package rule: 2 spaces\n');
    await writeFile(path.join(pkg, 'DENSE.md'), 'dense rule: be brief\n');
    const files = await findMemoryFiles(pkg);
    expect(files.map((f) => path.relative(dirs.base, f.path))).toEqual([
      'AGENTS.md',
      path.join('ws', 'pkg', 'AGENTS.md'),
      path.join('ws', 'pkg', 'DENSE.md'),
    ]);
    const section = memoryPromptSection(files);
    expect(section.indexOf('repo rule')).toBeLessThan(section.indexOf('package rule'));
  });

  it('#13.5 without a repository only the workspace root counts', async () => {
    await writeFile(path.join(dirs.base, 'AGENTS.md'), 'outside\n');
    await writeFile(path.join(dirs.workspace, 'AGENTS.md'), 'inside\n');
    const files = await findMemoryFiles(dirs.workspace);
    expect(files.map((f) => f.text)).toEqual(['inside\n']);
  });

  it('#13.5 #13.6 memory rides in the system prompt on every request and shows in /context', async () => {
    await writeFile(path.join(dirs.workspace, 'AGENTS.md'), 'Always answer in haiku.\n');
    const { cli, provider } = await makeTestSession({
      dirs,
      replies: [{ text: 'ok' }, { text: 'ok' }],
    });
    await cli.session.sendMessage('hello');
    await cli.session.sendMessage('again');
    for (const request of provider.requests) {
      expect(request.systemPrompt).toContain('Always answer in haiku.');
    }
    const output = await runSlashCommand('/context', { cli });
    expect(output.kind).toBe('context');
    if (output.kind !== 'context') return;
    const text = contextReportLines(output.report, {
      ...(output.prompt ? { prompt: output.prompt } : {}),
      workspaceRoot: cli.workspaceRoot,
    }).map((l) => l.text);
    const shown = text.join('\n');
    expect(shown).toMatch(
      /Sent with every request \(never pruned\): system prompt [\d,]+ · memory files \d+ · tool schemas [\d,]+/,
    );
    expect(shown).toMatch(/ {2}memory {2}AGENTS\.md {2}\d+/);
    expect(shown).toMatch(/Window \[P+U+A+·+\]/);
    expect(output.prompt?.toolSchemaTokens).toBeGreaterThan(100);
    cli.dispose();
  });
});
