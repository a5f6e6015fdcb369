import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { getText, type IContent } from '../../services/history/IContent.js';
import type { IProvider } from '../../providers/IProvider.js';
import { FilePromptResolver } from '../../prompt-config/FilePromptResolver.js';
import { PromptFileError } from '../../prompt-config/PromptFileError.js';
import {
  ai,
  human,
  makeCompressionContext,
  ScriptedProvider,
  sentText,
  staticPromptResolver,
  toolRoundTrip,
  type TestCompressionContextOptions,
} from '../../test-utils/index.js';
import type { Todo } from '../../tools/todo-schemas.js';
import { DenseError } from '../../utils/errors.js';
import type { DebugLogger } from '../../utils/logger.js';
import { DEFAULT_PROMPTS_DIR, STATE_SNAPSHOT_SECTIONS } from '../prompts.js';
import { EmptySummaryError } from './compressionErrors.js';
import { MiddleOutStrategy } from './MiddleOutStrategy.js';
import { SUMMARY_ACKNOWLEDGEMENT } from './summaryRequest.js';

const SNAPSHOT = '<state_snapshot><overall_goal>Ship it</overall_goal></state_snapshot>';

/** `rounds` × [ask, read_file call, result, answer]: 4 entries per round. */
function session(rounds: number): IContent[] {
  return Array.from({ length: rounds }, (_, r) => [
    human(`request ${r}`),
    ...toolRoundTrip(`call-${r}`, 'read_file', { file_path: `src/f${r}.ts` }, `content of f${r}`),
    ai(`answer ${r}`),
  ]).flat();
}

function throwingProvider(): never {
  throw new Error('no LLM call was expected');
}

class RateLimitError extends DenseError {
  readonly code = 'PROVIDER_RATE_LIMITED';
}

async function context(options: Partial<TestCompressionContextOptions> = {}) {
  return makeCompressionContext({ history: session(5), ...options });
}

let tempDirs: string[] = [];
beforeEach(() => {
  tempDirs = [];
});
afterEach(async () => {
  await Promise.all(tempDirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'dense-middle-out-'));
  tempDirs.push(dir);
  return dir;
}

describe('MiddleOutStrategy.compress', () => {
  it('keeps top and bottom literally and puts summary + acknowledgement between them', async () => {
    const provider = new ScriptedProvider([{ text: ['<state_snapshot>', '…</state_snapshot>'] }]);
    const ctx = await context({ provider });
    const result = await new MiddleOutStrategy().compress(ctx);
    // 20 entries: top ceil(4)=4, tail ceil(8)=8 → middle [4, 12).
    expect(result.kind).toBe('applied');
    expect(result.newHistory.slice(0, 4)).toEqual(ctx.history.slice(0, 4));
    expect(result.newHistory[0]).toBe(ctx.history[0]);
    expect(result.newHistory.slice(6)).toEqual(ctx.history.slice(12));
    const [summary, ack] = result.newHistory.slice(4, 6);
    expect(summary?.speaker).toBe('human');
    expect(summary?.metadata?.isSummary).toBe(true);
    expect(getText(summary!)).toBe('<state_snapshot>…</state_snapshot>');
    expect(ack?.speaker).toBe('ai');
    expect(ack?.metadata?.synthetic).toBe(true);
    expect(getText(ack!)).toBe(SUMMARY_ACKNOWLEDGEMENT);
    expect(result.metadata).toEqual({
      originalMessageCount: 20,
      compressedMessageCount: 14,
      strategyUsed: 'middle-out',
      llmCallMade: true,
      topPreserved: 4,
      bottomPreserved: 8,
      middleCompressed: 8,
    });
    expect(ctx.history).toHaveLength(20);
  });

  it('sends only the middle, with tool calls and results as readable text', async () => {
    const provider = new ScriptedProvider([{ text: SNAPSHOT }]);
    await new MiddleOutStrategy().compress(await context({ provider }));
    expect(provider.requests).toHaveLength(1);
    const sent = getText(provider.requests[0]!.contents[0]!);
    expect(sent).toContain(
      '→ Tool call read_file (id call-1) with parameters: {"file_path":"src/f1.ts"}',
    );
    expect(sent).toContain('← Result of read_file (id call-2):\ncontent of f2');
    expect(sent).not.toContain('request 0');
    expect(sent).not.toContain('request 3');
    expect(provider.requests[0]!.tools).toBeUndefined();
  });

  it('REQ-HD-010 sends the shipped prompt with all nine <state_snapshot> sections', async () => {
    const provider = new ScriptedProvider([{ text: SNAPSHOT }]);
    const ctx = {
      ...(await context({
        provider,
        promptResolver: new FilePromptResolver({ userPromptsDir: await tempDir() }),
      })),
      promptBaseDir: DEFAULT_PROMPTS_DIR,
    };
    await new MiddleOutStrategy().compress(ctx);
    const systemPrompt = provider.requests[0]?.systemPrompt ?? '';
    expect(STATE_SNAPSHOT_SECTIONS).toHaveLength(9);
    for (const section of STATE_SNAPSHOT_SECTIONS) {
      expect(systemPrompt).toContain(`<${section}>`);
      expect(systemPrompt).toContain(`</${section}>`);
    }
  });

  it("uses the user's compression.md override when present", async () => {
    const userDir = await tempDir();
    await writeFile(path.join(userDir, 'compression.md'), 'MY OWN PROMPT');
    const provider = new ScriptedProvider([{ text: SNAPSHOT }]);
    const ctx = {
      ...(await context({
        provider,
        promptResolver: new FilePromptResolver({ userPromptsDir: userDir }),
      })),
      promptBaseDir: DEFAULT_PROMPTS_DIR,
    };
    await new MiddleOutStrategy().compress(ctx);
    expect(provider.requests[0]?.systemPrompt).toBe('MY OWN PROMPT');
  });

  it('REQ-HD-011.3 appends the active todos to the request', async () => {
    const todos: Todo[] = [{ id: 'todo-1', content: 'Refactor the parser', status: 'pending' }];
    const provider = new ScriptedProvider([{ text: SNAPSHOT }]);
    await new MiddleOutStrategy().compress(await context({ provider, activeTodos: todos }));
    const sent = sentText(provider.requests[0]);
    expect(sent).toContain('- [pending] todo-1: Refactor the parser');
    expect(sent).toMatch(/why it exists, what created it/);
  });

  it('REQ-HD-012.2 ends the summary entry with the transcript pointer', async () => {
    const provider = new ScriptedProvider([{ text: SNAPSHOT }]);
    const result = await new MiddleOutStrategy().compress(
      await context({ provider, transcriptPath: '/tmp/sessions/s1.jsonl' }),
    );
    const summary = result.newHistory.find((entry) => entry.metadata?.isSummary === true);
    expect(getText(summary!)).toBe(
      `${SNAPSHOT}\n\nFull pre-compression transcript available at: /tmp/sessions/s1.jsonl`,
    );
  });

  it('keeps only the <state_snapshot> element of a chatty reply', async () => {
    const provider = new ScriptedProvider([
      { text: `Here you go:\n\`\`\`xml\n${SNAPSHOT}\n\`\`\`\n` },
    ]);
    const result = await new MiddleOutStrategy().compress(await context({ provider }));
    const summary = result.newHistory.find((entry) => entry.metadata?.isSummary === true);
    expect(getText(summary!)).toBe(SNAPSHOT);
  });

  it('asks the provider of compression.profile when one is set', async () => {
    const asked: (string | undefined)[] = [];
    const provider = new ScriptedProvider([{ text: SNAPSHOT }]);
    const resolveProvider = (profile?: string): IProvider => {
      asked.push(profile);
      return provider;
    };
    await new MiddleOutStrategy().compress(
      await context({ resolveProvider, settings: { 'compression.profile': 'cheap' } }),
    );
    expect(asked).toEqual(['cheap']);
  });

  it.each([
    ['empty-history', 0],
    ['too-few-to-compress', 8],
  ] as const)('is a %s no-op without calling an LLM', async (reason, length) => {
    const history = session(3).slice(0, length);
    const ctx = await makeCompressionContext({ history, resolveProvider: throwingProvider });
    const result = await new MiddleOutStrategy().compress(ctx);
    expect(result).toMatchObject({ kind: 'noop', reason, metadata: { llmCallMade: false } });
    expect(result.newHistory).toBe(history);
  });

  it('is a tail-covers-all no-op when the preserved tail is everything', async () => {
    const ctx = await context({
      resolveProvider: throwingProvider,
      settings: { 'compression.preserveThreshold': 1 },
    });
    await expect(new MiddleOutStrategy().compress(ctx)).resolves.toMatchObject({
      kind: 'noop',
      reason: 'tail-covers-all',
    });
  });
});

describe('MiddleOutStrategy failures (REQ-HD-013.4: propagate, no fallback)', () => {
  it('propagates the typed provider error unchanged', async () => {
    const failure = new RateLimitError('rate limited');
    const provider = new ScriptedProvider([{ text: '<state_', error: failure }]);
    await expect(new MiddleOutStrategy().compress(await context({ provider }))).rejects.toBe(
      failure,
    );
  });

  it('rejects an empty summary with EmptySummaryError', async () => {
    const provider = new ScriptedProvider([{ text: ['  ', '\n'] }]);
    const promise = new MiddleOutStrategy().compress(await context({ provider }));
    await expect(promise).rejects.toBeInstanceOf(EmptySummaryError);
    await expect(promise).rejects.toMatchObject({ code: 'EMPTY_SUMMARY', strategy: 'middle-out' });
  });

  it('propagates a prompt lookup failure before calling the provider', async () => {
    const provider = new ScriptedProvider([{ text: SNAPSHOT }]);
    const ctx = {
      ...(await context({
        provider,
        promptResolver: new FilePromptResolver({ userPromptsDir: await tempDir() }),
      })),
      promptBaseDir: path.join(await tempDir(), 'missing'),
    };
    await expect(new MiddleOutStrategy().compress(ctx)).rejects.toBeInstanceOf(PromptFileError);
    expect(provider.requests).toHaveLength(0);
  });

  it('keeps a summary without <state_snapshot> but logs a warning', async () => {
    const warnings: string[] = [];
    const logger: DebugLogger = {
      debug: () => undefined,
      info: () => undefined,
      warn: (message) => warnings.push(message),
      error: () => undefined,
    };
    const provider = new ScriptedProvider([{ text: 'Just prose.' }]);
    const ctx = { ...(await context({ provider })), logger };
    const result = await new MiddleOutStrategy().compress(ctx);
    expect(result.kind).toBe('applied');
    expect(warnings).toEqual([expect.stringContaining('<state_snapshot>')]);
  });

  it('passes the prompt request through the resolver with compression.md', async () => {
    const asked: string[] = [];
    const provider = new ScriptedProvider([{ text: SNAPSHOT }]);
    const resolver = staticPromptResolver({ 'compression.md': 'P' });
    const ctx = await context({
      provider,
      promptResolver: {
        resolveFile: (baseDir, file, promptContext) => {
          asked.push(`${baseDir}|${file}|${promptContext.model}`);
          return resolver.resolveFile(baseDir, file, promptContext);
        },
      },
    });
    await new MiddleOutStrategy().compress(ctx);
    expect(asked).toEqual(['/prompts|compression.md|scripted-model']);
  });
});
